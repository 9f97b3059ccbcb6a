import Benchmark
import Foundation
import SDPortCacheWorkload

/// The soak's second part: several processes on one cache directory (chapter 08). Four children of this binary
/// (`sdport-bench cache-worker mixed DIR SEED OPS KEYS`, `CacheWorkload.mixed`) run 2 000 mixed operations each —
/// stores, reads of the bytes and of the image, removals, `deleteOldFiles`, `clearDisk` — over 40 shared keys at
/// once. Goals: no read returns bytes other than its key's payload, no file under a cache name is torn, every child
/// exits normally. The same run is a test (`CACHEMultiProcessTests`).
enum MultiProcessSoak {
    static let workers = 4
    static let operations = 2_000
    static let keys = 40

    static let wrongReads = BenchmarkMetric.custom("wrong-reads", polarity: .prefersSmaller, useScalingFactor: false)
    static let tornFiles = BenchmarkMetric.custom("torn-files", polarity: .prefersSmaller, useScalingFactor: false)
    static let abnormalExits = BenchmarkMetric.custom(
        "abnormal-exits", polarity: .prefersSmaller, useScalingFactor: false)

    static func register() {
        BenchmarkCatalog.register(
            "soak.multiprocess", iterations: 1, warmup: 0, seconds: 600,
            extraMetrics: [wrongReads, tornFiles, abnormalExits]
        ) { benchmark in try run(benchmark) }
        for (name, metric) in [
            ("wrong-reads", "reads that returned another key's bytes"),
            ("torn-files", "files under a cache name that are torn"),
            ("abnormal-exits", "children that did not exit normally"),
        ] {
            BenchmarkGoal.atMost(
                "soak.multiprocess-\(name)", 0, [custom("soak.multiprocess", name)],
                note: "\(metric), 4 processes × 2 000 operations on one directory")
        }
    }

    static func run(_ benchmark: Benchmark) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sdport-bench-multi-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var children: [(Process, Pipe)] = []
        for index in 0..<workers {
            let child = Process()
            child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            child.arguments = [
                "cache-worker", "mixed", directory, String(2000 + index), String(operations), String(keys),
            ]
            let out = Pipe()
            child.standardOutput = out
            child.standardError = FileHandle.standardError
            try child.run()
            children.append((child, out))
        }
        var total = CacheWorkload.Report()
        var abnormal = 0
        for (child, out) in children {
            let output = out.fileHandleForReading.readDataToEndOfFile()
            child.waitUntilExit()
            guard child.terminationReason == .exit, child.terminationStatus == 0,
                let report = try? JSONDecoder().decode(CacheWorkload.Report.self, from: output)
            else {
                abnormal += 1
                continue
            }
            total = total.adding(report)
        }
        let cachePath = CacheWorkload.cache(in: directory).diskCachePath
        let torn = try CacheWorkload.tornFiles(in: cachePath, keys: keys)
        print(
            String(
                format: "%d processes x %d operations on one directory: %d stores (%d failed), %d hits, %d misses, "
                    + "%d removals, %d deleteOldFiles, %d clearDisk", workers, operations, total.stores,
                total.storeFailures, total.hits, total.misses, total.removals, total.cleanups, total.clears))
        print(
            "reads of wrong bytes: \(total.wrongReads); torn files: \(torn.count); children that did not exit normally: \(abnormal)"
        )
        benchmark.measurement(wrongReads, total.wrongReads)
        benchmark.measurement(tornFiles, torn.count)
        benchmark.measurement(abnormalExits, abnormal)
    }

    /// The child: one mixed run, its report as one JSON line.
    static func runWorker(_ arguments: [String]) throws {
        guard arguments.count == 5, arguments[0] == "mixed" else {
            throw DownloaderBenchmarks.BenchmarkError.failed("usage: cache-worker mixed DIR SEED OPS KEYS")
        }
        let report = try CacheWorkload.mixed(
            in: arguments[1], seed: UInt64(arguments[2]) ?? 1,
            operations: Int(arguments[3]) ?? 0, keys: Int(arguments[4]) ?? 1)
        print(String(decoding: try JSONEncoder().encode(report), as: UTF8.self))
    }
}
