import Foundation
import SDPort
import SDPortCacheWorkload
import SDPortTestSupport
import XCTest

/// Several processes sharing one cache directory (port addition; chapter 08): 4.4.8 assumes one process per cache
/// folder, a Linux service often runs several workers over one. Four `sdport-cache-worker mixed` processes run 2 000
/// mixed operations each (stores, reads of the bytes and of the image, removals, `deleteOldFiles`, `clearDisk`) on
/// one directory at once, over 40 shared keys.
final class CACHEMultiProcessTests: XCTestCase {
    static let workers = 4
    static let operations = 2_000
    static let keys = 40

    /// Every worker exits normally having run exactly the operations its seed plans, every read is a hit or a
    /// miss and no read ever returns bytes other than its key's payload (whole data or a miss). Then the four
    /// processes store every key at once (ten each, over what the mixed run left): afterwards the directory holds
    /// exactly the 40 cache names, each with its key's exact payload.
    func test_CACHEMULTI_fourProcessesShareOneDirectory() throws {
        let directory = try TemporaryDirectory(prefix: "sdport-multi")
        defer { directory.remove() }
        let worker = try CLIProcess.executable("sdport-cache-worker")
        let environment = ProcessInfo.processInfo.environment.merging(["SDPORT_TEST_HOME_PARENT": directory.path]) {
            $1
        }
        func start(_ arguments: [String]) throws -> ChildProcess {
            try ChildProcess(executable: worker, arguments: arguments, environment: environment)
        }
        func finish(_ child: ChildProcess, _ what: String) throws {
            let exit = try child.wait(deadline: 300)
            XCTAssertEqual(exit.reason, .exit, "\(what) was not killed by a signal: \(child.text(2))")
            XCTAssertEqual(exit.code, 0, "\(what): \(child.text(2))")
        }

        let seeds = (0..<Self.workers).map { UInt64(1000 + $0) }
        let mixed = try seeds.map {
            try start(["mixed", directory.path, String($0), String(Self.operations), String(Self.keys)])
        }
        var total = CacheWorkload.Report()
        for (index, child) in mixed.enumerated() {
            try finish(child, "worker \(index)")
            let report = try JSONDecoder().decode(CacheWorkload.Report.self, from: child.data(1))
            let plan = CacheWorkload.planned(seed: seeds[index], operations: Self.operations, keys: Self.keys)
            XCTAssertEqual(
                [report.stores, report.reads, report.removals, report.cleanups, report.clears],
                [plan.stores, plan.reads, plan.removals, plan.cleanups, plan.clears],
                "worker \(index) ran the operations its seed plans")
            XCTAssertEqual(report.hits + report.misses, report.reads, "worker \(index): every read is a hit or a miss")
            XCTAssertLessThan(report.storeFailures, report.stores, "worker \(index): stores succeed")
            XCTAssertEqual(report.wrongReads, 0, "worker \(index) read bytes that were not its key's payload")
            total = total.adding(report)
        }
        XCTAssertGreaterThan(total.hits, 0, "reads found files the other workers wrote")
        XCTAssertGreaterThan(total.decodedHits, 0, "queries decoded files the workers wrote")
        XCTAssertGreaterThan(total.clears, 0, "clearDisk ran while others wrote")

        let share = Self.keys / Self.workers
        let storers = try (0..<Self.workers).map {
            try start(["store", directory.path, String(share), String($0 * share)])
        }
        for (index, child) in storers.enumerated() { try finish(child, "storer \(index)") }
        let cachePath = CacheWorkload.cache(in: directory.path).diskCachePath
        let names = try FileManager.default.contentsOfDirectory(atPath: cachePath).filter { !$0.hasPrefix(".") }
        XCTAssertEqual(
            Set(names), Set((0..<Self.keys).map { SDImageCache.cachedFileName(forKey: CacheWorkload.key($0)) }),
            "every key the last phase stored is there, and nothing else")
        for index in 0..<Self.keys {
            let path = cachePath + "/" + SDImageCache.cachedFileName(forKey: CacheWorkload.key(index))
            XCTAssertEqual(FileManager.default.contents(atPath: path), try CacheWorkload.payload(index), "key \(index)")
        }
        XCTAssertEqual(
            try CacheWorkload.tornFiles(in: cachePath, keys: Self.keys), [], "no torn file under a cache name")
        print(
            "multi-process: \(total.stores) stores (\(total.storeFailures) failed), \(total.hits) hits, \(total.misses) misses, \(total.clears) clears"
        )
    }
}
