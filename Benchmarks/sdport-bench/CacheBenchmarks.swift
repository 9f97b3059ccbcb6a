import Foundation
import Glibc
import SDPort

/// Benchmarks of the cache layer. Each figure is the best of a few runs, in seconds.
///
/// 1. Memory: 200 000 sets then 200 000 gets of distinct keys on `AutoPurgeCache`, Foundation's `NSCache` and a
///    `Dictionary` behind an `NSLock` (goal: AutoPurgeCache sets at least 3× faster than NSCache).
/// 2. Disk: 1 000 blobs of 100 KB stored with `store(_:imageData:forKey:toDisk:completion:)` (data given, so no
///    encoding; no completion block, as SDWebImageManager stores) and read back with `diskImageData(forKey:)`,
///    against the same bytes written with POSIX calls the crash-safe way (a temporary file, then a rename) under
///    the same file names and read back (goal: at least 0.9× that throughput), and against `Data.write(to:)` /
///    `Data(contentsOf:)` for reference. Each contestant starts after a `sync()`, in rotating order, best of 3.
///    Stores with a completion block each are timed too, for the cost of the hop per store.
/// 3. Cleanup: `deleteOldFiles` over 20 000 files, half of them 8 days old, against
///    `find DIR -type f -mtime +7 -delete` on a copy of the same tree (goal: at most 1.5× find's time).
enum CacheBenchmarks {
    /// Runs all three, or only the one named by the environment variable `SDPORT_BENCH_CACHE_PART`
    /// (`memory`, `disk` or `cleanup`), for profiling.
    static func run() throws {
        let part = ProcessInfo.processInfo.environment["SDPORT_BENCH_CACHE_PART"]
        if part == nil || part == "memory" { memoryCaches() }
        if part == nil || part == "disk" { try diskStoreAndQuery() }
        if part == nil || part == "cleanup" { try cleanup() }
    }

    // MARK: Helpers

    private final class Payload: Sendable {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    /// Best wall-clock time of `runs` runs of `body`, in seconds.
    private static func best(of runs: Int, _ body: () throws -> Void) rethrows -> Double {
        var fastest = Double.infinity
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            fastest = min(fastest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return fastest
    }

    private static func seconds(_ value: Double) -> String { String(format: "%.4f s", value) }
    private static func ratio(_ value: Double) -> String { String(format: "%.2f×", value) }

    private static func makeTemporaryDirectory(_ name: String) throws -> String {
        let path = NSTemporaryDirectory() + "sdport-bench-\(name)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    // MARK: 1. Memory caches

    private static func memoryCaches() {
        let count = 200_000
        let keys = (0..<count).map { "http://example.com/images/\($0).jpg" }
        let nsKeys = keys.map { $0 as NSString }
        let payloads = (0..<count).map { Payload($0) }
        var sink = 0

        func measure(_ name: String, set: () -> Void, get: () -> Void) -> (set: Double, get: Double) {
            var setTime = Double.infinity
            var getTime = Double.infinity
            for _ in 0..<3 {
                setTime = min(setTime, best(of: 1, set))
                getTime = min(getTime, best(of: 1, get))
            }
            print("  \(name.padding(toLength: 26, withPad: " ", startingAt: 0)) set \(seconds(setTime))   get \(seconds(getTime))")
            return (setTime, getTime)
        }

        print("memory: \(count) sets then \(count) gets, distinct String keys, no limits (best of 3)")
        var lru = AutoPurgeCache<String, Payload>(purgesOnMemoryWarning: false)
        let lruTimes = measure("AutoPurgeCache (LRU)", set: {
            lru = AutoPurgeCache<String, Payload>(purgesOnMemoryWarning: false)
            for i in 0..<count { lru.setObject(payloads[i], forKey: keys[i], cost: 1) }
        }, get: {
            for i in 0..<count { sink &+= lru.object(forKey: keys[i])?.value ?? 0 }
        })

        var nsCache = NSCache<NSString, Payload>()
        let nsTimes = measure("Foundation NSCache", set: {
            nsCache = NSCache<NSString, Payload>()
            for i in 0..<count { nsCache.setObject(payloads[i], forKey: nsKeys[i], cost: 1) }
        }, get: {
            for i in 0..<count { sink &+= nsCache.object(forKey: nsKeys[i])?.value ?? 0 }
        })

        let lock = NSLock()
        var dictionary: [String: Payload] = [:]
        let dictionaryTimes = measure("Dictionary + NSLock", set: {
            dictionary = [:]
            for i in 0..<count { lock.withLock { dictionary[keys[i]] = payloads[i] } }
        }, get: {
            for i in 0..<count { sink &+= lock.withLock { dictionary[keys[i]]?.value ?? 0 } }
        })

        BenchmarkGoal.record("cache.memory.sets-vs-NSCache", ratio: nsTimes.set / lruTimes.set, atLeast: 3)
        BenchmarkGoal.record("cache.memory.sets-vs-Dictionary+lock", ratio: dictionaryTimes.set / lruTimes.set, atLeast: 0.9)
        BenchmarkGoal.record("cache.memory.gets-vs-Dictionary+lock", ratio: dictionaryTimes.get / lruTimes.get, atLeast: 0.9)
        print("  sets: AutoPurgeCache is \(ratio(nsTimes.set / lruTimes.set)) NSCache's speed (goal ≥ 3×), "
              + "\(ratio(dictionaryTimes.set / lruTimes.set)) Dictionary+lock's (goal ≥ 0.9×); "
              + "gets: \(ratio(nsTimes.get / lruTimes.get)) NSCache's, \(ratio(dictionaryTimes.get / lruTimes.get)) "
              + "Dictionary+lock's (goal ≥ 0.9×)")

        // With a count limit, eviction runs on most sets: the LRU keeps the newest 50 000, NSCache on Linux the oldest.
        let limited = AutoPurgeCache<String, Payload>(purgesOnMemoryWarning: false)
        limited.countLimit = 50_000
        let limitedTime = best(of: 1) { for i in 0..<count { limited.setObject(payloads[i], forKey: keys[i], cost: 1) } }
        let limitedNS = NSCache<NSString, Payload>()
        limitedNS.countLimit = 50_000
        let limitedNSTime = best(of: 1) { for i in 0..<count { limitedNS.setObject(payloads[i], forKey: nsKeys[i], cost: 1) } }
        let lruKeepsNewest = limited.object(forKey: keys[count - 1]) != nil
        let nsKeepsNewest = limitedNS.object(forKey: nsKeys[count - 1]) != nil
        print("  countLimit 50 000: AutoPurgeCache sets \(seconds(limitedTime)) (keeps the newest: \(lruKeepsNewest)), "
              + "NSCache sets \(seconds(limitedNSTime)) (keeps the newest: \(nsKeepsNewest))")
        if sink == 42 { print("") }  // keeps the reads from being optimised away
    }

    // MARK: 2. Disk store and query

    private static func diskStoreAndQuery() throws {
        let count = 1_000
        let size = 100 * 1024
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let blobs = (0..<count).map { index -> Data in
            var bytes = noise
            withUnsafeBytes(of: index) { bytes.replaceSubrange(0..<$0.count, with: $0) }
            return Data(bytes)
        }
        let keys = (0..<count).map { "http://example.com/photos/\($0).jpg" }
        let image = UIImage(pixelWidth: 1, pixelHeight: 1, pixels: [0, 0, 0, 255], hasAlpha: false)
        let megabytes = Double(count * size) / 1_048_576
        print("disk: \(count) blobs of 100 KB (\(String(format: "%.0f", megabytes)) MB), write then read back (best of 3)")

        // Creating files right after deleting many is slow on ext4 (it skips recently freed inodes), so every
        // directory is kept until all runs are done, and the order of the three rotates from round to round.
        var directories: [String] = []
        var times: [String: (write: Double, read: Double)] = [:]
        func record(_ name: String, write: Double, read: Double) {
            let previous = times[name] ?? (.infinity, .infinity)
            times[name] = (min(previous.write, write), min(previous.read, read))
        }
        func freshCache(_ name: String) throws -> SDImageCache {
            let directory = try makeTemporaryDirectory(name)
            directories.append(directory)
            return SDImageCache(namespace: "bench", diskCacheDirectory: directory)
        }
        let contestants: [(String, () throws -> Void)] = [
            ("foundation", {
                let directory = try makeTemporaryDirectory("foundation")
                directories.append(directory)
                let urls = (0..<count).map { URL(fileURLWithPath: directory + "/\($0).jpg") }
                let write = try best(of: 1) { for i in 0..<count { try blobs[i].write(to: urls[i]) } }
                var total = 0
                let read = try best(of: 1) { for i in 0..<count { total += try Data(contentsOf: urls[i]).count } }
                precondition(total == count * size)
                record("foundation", write: write, read: read)
            }),
            ("posix", {
                let directory = try makeTemporaryDirectory("posix")
                directories.append(directory)
                // The cache's own file names (MD5 of the key + extension), so both sides make the same directory
                // entries; the cache's time to compute them is part of its work, printed separately below.
                let paths = keys.map { directory + "/" + SDImageCache.cachedFileName(forKey: $0) }
                let write = best(of: 1) { for i in 0..<count { posixWriteFile(blobs[i], paths[i], sequence: i) } }
                var total = 0
                let read = best(of: 1) { for i in 0..<count { total += posixReadFile(paths[i]) } }
                precondition(total == count * size)
                record("posix", write: write, read: read)
            }),
            ("cache", {
                // As SDWebImageManager stores (4.4.8 SDWebImageManager.m:258-301: `completion:nil`), then one
                // synchronous io-queue call, which runs after every queued store (the io queue is serial).
                let cache = try freshCache("cache")
                let write = best(of: 1) {
                    for i in 0..<count { cache.store(image, imageData: blobs[i], forKey: keys[i], toDisk: true, completion: nil) }
                    _ = cache.diskImageDataExists(withKey: keys[count - 1])
                }
                var total = 0
                let read = best(of: 1) { for i in 0..<count { total += cache.diskImageData(forKey: keys[i])?.count ?? 0 } }
                precondition(total == count * size)
                record("cache", write: write, read: read)
            }),
            ("cache with completions", {
                // For reference: a completion block per store, each one a hop to the completion queue.
                let cache = try freshCache("completions")
                cache.completionQueue = DispatchQueue(label: "sdport.bench.completions")
                let write = best(of: 1) {
                    let group = DispatchGroup()
                    for i in 0..<count {
                        group.enter()
                        cache.store(image, imageData: blobs[i], forKey: keys[i], toDisk: true) { group.leave() }
                    }
                    group.wait()
                }
                record("cache with completions", write: write, read: 0)
            }),
        ]
        for round in 0..<3 {
            for index in 0..<contestants.count {
                // Each contestant starts with no dirty pages of the one before: otherwise whoever comes after a
                // 98 MB write pays for its writeback, and the ratio swings (0.6-1.8x in one afternoon).
                sync()
                try contestants[(index + round) % contestants.count].1()
            }
        }
        for directory in directories { try FileManager.default.removeItem(atPath: directory) }
        var nameLength = 0
        let nameTime = best(of: 3) { for key in keys { nameLength += SDImageCache.cachedFileName(forKey: key).utf8.count } }
        let probe = SDImageCache(namespace: "bench", diskCacheDirectory: NSTemporaryDirectory() + "sdport-bench-unused")
        let hopTime = best(of: 3) { for _ in 0..<count { probe.ioQueue.sync {} } }
        print(String(format: "  per operation: file name (MD5 + URL extension) %.1f µs, io queue round trip %.1f µs",
                     nameTime / Double(count) * 1e6, hopTime / Double(count) * 1e6))
        let (foundationWrite, foundationRead) = times["foundation"]!
        let (posixWrite, posixRead) = times["posix"]!
        let (cacheWrite, cacheRead) = times["cache"]!
        func line(_ name: String, _ write: Double, _ read: Double) {
            print("  \(name.padding(toLength: 44, withPad: " ", startingAt: 0)) write \(seconds(write)) "
                  + "(\(String(format: "%5.0f", megabytes / write)) MB/s)   read \(seconds(read)) (\(String(format: "%5.0f", megabytes / read)) MB/s)")
        }
        line("Foundation Data.write / Data(contentsOf:)", foundationWrite, foundationRead)
        line("POSIX temp file+write+rename / open+read", posixWrite, posixRead)
        line("SDImageCache store(imageData:) / diskImageData", cacheWrite, cacheRead)
        let withCompletions = times["cache with completions"]!.write
        print("  SDImageCache stores with a completion block each (a hop to the completion queue per store): write "
              + "\(seconds(withCompletions)), \(String(format: "%.1f", (withCompletions - cacheWrite) / Double(count) * 1e6)) µs more per store")
        BenchmarkGoal.record("cache.disk.write+read-vs-POSIX-temp+rename", ratio: (posixWrite + posixRead) / (cacheWrite + cacheRead), atLeast: 0.9)
        print("  SDImageCache vs POSIX: write \(ratio(posixWrite / cacheWrite)), read \(ratio(posixRead / cacheRead)), "
              + "write+read \(ratio((posixWrite + posixRead) / (cacheWrite + cacheRead))) (goal ≥ 0.9×); "
              + "vs Foundation (its write fsyncs every file on Linux): write+read \(ratio((foundationWrite + foundationRead) / (cacheWrite + cacheRead)))")
    }

    /// The anchor does what makes a cache write crash-safe, as the cache does: a new temporary file in the same
    /// directory, then a rename over the name (a reader never sees half a file).
    private static func posixWriteFile(_ data: Data, _ path: String, sequence: Int) {
        // A temporary name like the cache's: ".sdport-tmp-" + 32 characters + "-pid-sequence", new for every file.
        let slash = path.lastIndex(of: "/")!
        let temporary = String(path[...slash]) + ".sdport-tmp-" + path[path.index(after: slash)...].prefix(32) + "-\(getpid())-\(sequence)"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        precondition(descriptor >= 0)
        data.withUnsafeBytes { precondition(write(descriptor, $0.baseAddress, $0.count) == $0.count) }
        close(descriptor)
        precondition(rename(temporary, path) == 0)
    }

    private static func posixReadFile(_ path: String) -> Int {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        precondition(descriptor >= 0)
        defer { close(descriptor) }
        var info = stat()
        fstat(descriptor, &info)
        var buffer = [UInt8](repeating: 0, count: Int(info.st_size))
        return buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    }

    // MARK: 3. Cleanup

    private static func cleanup() throws {
        let count = 20_000
        print("cleanup: \(count) files of 2 KB, every other one 8 days old, synced to disk; deleteOldFiles vs find -mtime +7 -delete")
        var sdTimes: [Double] = []
        var findTimes: [Double] = []
        for round in 0..<4 {
            let root = try makeTemporaryDirectory("cleanup")
            let cache = SDImageCache(namespace: "bench", diskCacheDirectory: root)
            let directory = cache.diskCachePath
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let blob = Data(repeating: 0xAB, count: 2_048)
            let eightDaysAgo = Int(Date().timeIntervalSince1970) - 8 * 24 * 3600
            // The copy is written file by file in the same order (not with `cp`, which would lay it out in
            // directory order and make it faster to delete than the original).
            let copy = root + "/copy"
            try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
            for i in 0..<count {
                let name = SDImageCache.cachedFileName(forKey: "http://example.com/\(i).png")
                for path in [directory + "/" + name, copy + "/" + name] {
                    posixWriteFile(blob, path, sequence: i)
                    if i % 2 == 0 {
                        var times = [timespec(tv_sec: eightDaysAgo, tv_nsec: 0), timespec(tv_sec: eightDaysAgo, tv_nsec: 0)]
                        guard utimensat(AT_FDCWD, path, &times, 0) == 0 else { throw CocoaError(.fileWriteUnknown) }
                    }
                }
            }
            // Both trees on disk before timing: deleting a file whose blocks are still only in the page cache
            // (delayed allocation) is much cheaper than deleting one already written out.
            sync()

            func timeFind() throws -> Double { try best(of: 1) { try runProcess("/usr/bin/find", [copy, "-type", "f", "-mtime", "+7", "-delete"]) } }
            func timeDeleteOldFiles() -> Double {
                best(of: 1) {
                    let done = DispatchSemaphore(value: 0)
                    cache.completionQueue = DispatchQueue(label: "sdport.bench.cleanup")
                    cache.deleteOldFiles { done.signal() }
                    done.wait()
                }
            }
            // Alternate which one runs first, so neither always gets the warmer caches.
            if round % 2 == 0 {
                findTimes.append(try timeFind())
                sdTimes.append(timeDeleteOldFiles())
            } else {
                sdTimes.append(timeDeleteOldFiles())
                findTimes.append(try timeFind())
            }
            let left = cache.getDiskCount()
            let leftInCopy = (try FileManager.default.contentsOfDirectory(atPath: copy)).count
            precondition(left == UInt(count / 2) && leftInCopy == count / 2, "both must delete exactly the old half")
            try FileManager.default.removeItem(atPath: root)
        }
        let sd = sdTimes.min()!, find = findTimes.min()!
        print("  deleteOldFiles \(seconds(sd)) (runs: \(sdTimes.map(seconds).joined(separator: ", ")))   "
              + "find \(seconds(find)) (runs: \(findTimes.map(seconds).joined(separator: ", ")), includes starting the process)")
        BenchmarkGoal.record("cache.deleteOldFiles-vs-find", ratio: sd / find, atMost: 1.5)
        print("  deleteOldFiles takes \(ratio(sd / find)) find's time (goal ≤ 1.5×)")
    }

    private static func runProcess(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(domain: "CacheBenchmarks", code: Int(process.terminationStatus),
                          userInfo: [NSLocalizedDescriptionKey: "\(executable) \(arguments.joined(separator: " ")) failed"])
        }
    }
}
