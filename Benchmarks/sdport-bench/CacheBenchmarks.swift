import Benchmark
import Foundation
import Glibc
import SDPort
import Synchronization

/// Benchmarks of the cache layer, each iteration a batch of operations (the report divides by it).
///
/// 1. Memory: 100 000 sets of distinct keys into a fresh store, and 100 000 gets from a full one, on
///    `AutoPurgeCache`, Foundation's `NSCache` and a `Dictionary` behind an `NSLock`. Goals: AutoPurgeCache sets at
///    least 3× NSCache's speed, sets and gets at least 0.9× the locked Dictionary's.
/// 2. Disk: 1 000 blobs of 100 KB stored with `store(_:imageData:forKey:toDisk:completion:)` (data given, so no
///    encoding; no completion block, as SDWebImageManager stores) into a fresh directory, and read back with
///    `diskImageData(forKey:)`, against the same bytes written with POSIX calls the crash-safe way (a temporary
///    file, then a rename) under the same file names and read back. Goal: at least 0.9× that throughput. Each
///    write starts after a `sync()`, so no one pays for the dirty pages of the one before.
/// 3. Cleanup: `deleteOldFiles` over 20 000 files, half of them 8 days old, against
///    `find DIR -type f -mtime +7 -delete` on a tree written the same way (goal: at most 1.5× find's time).
enum CacheBenchmarks {
    static let memoryCount = 100_000
    static let diskCount = 1_000
    static let blobSize = 100 * 1024
    static let cleanupCount = 20_000

    static func register() {
        registerMemory()
        registerDisk()
        registerCleanup()
    }

    // MARK: Helpers

    final class Payload: Sendable {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    /// Directories made by a benchmark's iterations, removed when its process ends (or, for the writes, after each
    /// iteration: creating files right after deleting many is slow on ext4, which skips recently freed inodes, and
    /// package-benchmark runs each contender in its own process one after the other, so each write iteration of
    /// both contenders follows the same deletion).
    static let directories = Mutex<[String]>([])

    static func makeTemporaryDirectory(_ name: String) throws -> String {
        let path = NSTemporaryDirectory() + "sdport-bench-\(name)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        directories.withLock { $0.append(path) }
        return path
    }

    static func removeDirectories() {
        for path in directories.withLock({ list in
            defer { list.removeAll() }
            return list
        }) {
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    // MARK: 1. Memory caches

    static let keys = (0..<memoryCount).map { "http://example.com/images/\($0).jpg" }
    nonisolated(unsafe) static let nsKeys = keys.map { $0 as NSString }  // read-only once made
    static let payloads = (0..<memoryCount).map { Payload($0) }

    /// Full stores for the gets, made once per process.
    static let fullLRU: AutoPurgeCache<String, Payload> = {
        let cache = AutoPurgeCache<String, Payload>(purgesOnMemoryWarning: false)
        for i in 0..<memoryCount { cache.setObject(payloads[i], forKey: keys[i], cost: 1) }
        return cache
    }()
    /// NSCache is thread-safe; the benchmark only reads it once made.
    nonisolated(unsafe) static let fullNSCache: NSCache<NSString, Payload> = {
        let cache = NSCache<NSString, Payload>()
        for i in 0..<memoryCount { cache.setObject(payloads[i], forKey: nsKeys[i], cost: 1) }
        return cache
    }()
    static let fullDictionary = LockedDictionary(keys: keys, payloads: payloads)

    /// A `Dictionary` behind an `NSLock`, the anchor of the memory-cache goals.
    final class LockedDictionary: @unchecked Sendable {
        /// Guards `storage`.
        private let lock = NSLock()
        private var storage: [String: Payload] = [:]
        init() {}
        convenience init(keys: [String], payloads: [Payload]) {
            self.init()
            for i in keys.indices { set(payloads[i], keys[i]) }
        }
        func set(_ payload: Payload, _ key: String) { lock.withLock { storage[key] = payload } }
        func get(_ key: String) -> Payload? { lock.withLock { storage[key] } }
    }

    private static func registerMemory() {
        let count = memoryCount
        func register(_ name: String, set: @escaping () -> Void, get: @escaping () -> Void, warm: @escaping () -> Void)
        {
            BenchmarkCatalog.register(
                "cache.memory.set.\(name)", operations: count, reportsMallocs: true, iterations: 10
            ) { _ in set() }
            BenchmarkCatalog.register(
                "cache.memory.get.\(name)", operations: count, reportsMallocs: true, iterations: 10,
                setup: { warm() }
            ) { _ in get() }
        }
        register(
            "AutoPurgeCache",
            set: {
                let cache = AutoPurgeCache<String, Payload>(purgesOnMemoryWarning: false)
                for i in 0..<count { cache.setObject(payloads[i], forKey: keys[i], cost: 1) }
                blackHole(cache)
            },
            get: {
                var sink = 0
                for i in 0..<count { sink &+= fullLRU.object(forKey: keys[i])?.value ?? 0 }
                blackHole(sink)
            }, warm: { blackHole(fullLRU) })
        register(
            "NSCache",
            set: {
                let cache = NSCache<NSString, Payload>()
                for i in 0..<count { cache.setObject(payloads[i], forKey: nsKeys[i], cost: 1) }
                blackHole(cache)
            },
            get: {
                var sink = 0
                for i in 0..<count { sink &+= fullNSCache.object(forKey: nsKeys[i])?.value ?? 0 }
                blackHole(sink)
            }, warm: { blackHole(fullNSCache) })
        register(
            "Dictionary+lock",
            set: {
                let dictionary = LockedDictionary()
                for i in 0..<count { dictionary.set(payloads[i], keys[i]) }
                blackHole(dictionary)
            },
            get: {
                var sink = 0
                for i in 0..<count { sink &+= fullDictionary.get(keys[i])?.value ?? 0 }
                blackHole(sink)
            }, warm: { blackHole(fullDictionary) })
        BenchmarkGoal.atLeast(
            "cache.memory.sets-vs-NSCache", 3, [wall("cache.memory.set.NSCache")],
            over: [wall("cache.memory.set.AutoPurgeCache")],
            note: "AutoPurgeCache's speed of 100 000 sets against Foundation's NSCache on Linux")
        BenchmarkGoal.atLeast(
            "cache.memory.sets-vs-Dictionary+lock", 0.9, [wall("cache.memory.set.Dictionary+lock")],
            over: [wall("cache.memory.set.AutoPurgeCache")],
            note: "AutoPurgeCache's speed of sets against a Dictionary behind an NSLock")
        BenchmarkGoal.atLeast(
            "cache.memory.gets-vs-Dictionary+lock", 0.9, [wall("cache.memory.get.Dictionary+lock")],
            over: [wall("cache.memory.get.AutoPurgeCache")],
            note: "AutoPurgeCache's speed of gets against a Dictionary behind an NSLock")
    }

    // MARK: 2. Disk store and query

    static let cacheKeys = (0..<diskCount).map { "http://example.com/photos/\($0).jpg" }
    static let blobs: [Data] = {
        var generator = DownloaderBenchmarks.SplitMix(seed: 11)
        let noise = (0..<blobSize).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        return (0..<diskCount).map { index -> Data in
            var bytes = noise
            withUnsafeBytes(of: index) { bytes.replaceSubrange(0..<$0.count, with: $0) }
            return Data(bytes)
        }
    }()
    static let pixel = UIImage(pixelWidth: 1, pixelHeight: 1, pixels: [0, 0, 0, 255], hasAlpha: false)

    /// The 1 000 blobs stored by the cache, for the reads (made once per process).
    static let filledCache: SDImageCache = {
        let cache = SDImageCache(namespace: "bench", diskCacheDirectory: try! makeTemporaryDirectory("cache-read"))
        for i in 0..<diskCount {
            cache.store(pixel, imageData: blobs[i], forKey: cacheKeys[i], toDisk: true, completion: nil)
        }
        _ = cache.diskImageDataExists(withKey: "flush")  // the io queue is serial: every store is on disk now
        return cache
    }()

    /// The same blobs written with POSIX calls under the cache's file names, for the reads.
    static let filledPOSIXPaths: [String] = {
        let directory = try! makeTemporaryDirectory("posix-read")
        let paths = cacheKeys.map { directory + "/" + SDImageCache.cachedFileName(forKey: $0) }
        for i in 0..<diskCount { posixWriteFile(blobs[i], paths[i], sequence: i) }
        return paths
    }()

    private static func registerDisk() {
        let count = diskCount
        let teardown: () -> Void = { removeDirectories() }
        BenchmarkCatalog.register(
            "cache.disk.write.SDImageCache", operations: count, reportsMallocs: true, iterations: 5,
            teardown: teardown
        ) { benchmark in
            // As SDWebImageManager stores (4.4.8 SDWebImageManager.m:258-301: `completion:nil`), then one
            // synchronous io-queue call, which runs after every queued store (the io queue is serial).
            let directory = try makeTemporaryDirectory("cache")
            let cache = SDImageCache(namespace: "bench", diskCacheDirectory: directory)
            let images = pixel
            sync()
            benchmark.startMeasurement()
            for i in 0..<count {
                cache.store(images, imageData: blobs[i], forKey: cacheKeys[i], toDisk: true, completion: nil)
            }
            _ = cache.diskImageDataExists(withKey: cacheKeys[count - 1])
            benchmark.stopMeasurement()
            try? FileManager.default.removeItem(atPath: directory)
        }
        BenchmarkCatalog.register("cache.disk.write.POSIX", operations: count, iterations: 5, teardown: teardown) {
            benchmark in
            // The cache's own file names (MD5 of the key + extension), so both sides make the same directory entries.
            let directory = try makeTemporaryDirectory("posix")
            let paths = cacheKeys.map { directory + "/" + SDImageCache.cachedFileName(forKey: $0) }
            sync()
            benchmark.startMeasurement()
            for i in 0..<count { posixWriteFile(blobs[i], paths[i], sequence: i) }
            benchmark.stopMeasurement()
            try? FileManager.default.removeItem(atPath: directory)
        }
        BenchmarkCatalog.register(
            "cache.disk.read.SDImageCache", operations: count, reportsMallocs: true, iterations: 10,
            setup: { blackHole(filledCache) }, teardown: teardown
        ) { _ in
            var total = 0
            for i in 0..<count { total += filledCache.diskImageData(forKey: cacheKeys[i])?.count ?? 0 }
            precondition(total == count * blobSize)
        }
        BenchmarkCatalog.register(
            "cache.disk.read.POSIX", operations: count, iterations: 10,
            setup: { blackHole(filledPOSIXPaths) }, teardown: teardown
        ) { _ in
            var total = 0
            for path in filledPOSIXPaths { total += posixReadFile(path) }
            precondition(total == count * blobSize)
        }
        BenchmarkGoal.atLeast(
            "cache.disk.write+read-vs-POSIX-temp+rename", 0.9,
            [wall("cache.disk.write.POSIX"), wall("cache.disk.read.POSIX")],
            over: [wall("cache.disk.write.SDImageCache"), wall("cache.disk.read.SDImageCache")],
            note: "SDImageCache's speed writing and reading 1 000 files of 100 KB against POSIX temp file + rename")
    }

    /// The anchor does what makes a cache write crash-safe, as the cache does: a new temporary file in the same
    /// directory, then a rename over the name (a reader never sees half a file).
    static func posixWriteFile(_ data: Data, _ path: String, sequence: Int) {
        // A temporary name like the cache's: ".sdport-tmp-" + 32 characters + "-pid-sequence", new for every file.
        let slash = path.lastIndex(of: "/")!
        let temporary =
            String(path[...slash]) + ".sdport-tmp-" + path[path.index(after: slash)...].prefix(32)
            + "-\(getpid())-\(sequence)"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        precondition(descriptor >= 0)
        data.withUnsafeBytes { precondition(write(descriptor, $0.baseAddress, $0.count) == $0.count) }
        close(descriptor)
        precondition(rename(temporary, path) == 0)
    }

    static func posixReadFile(_ path: String) -> Int {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        precondition(descriptor >= 0)
        defer { close(descriptor) }
        var info = stat()
        fstat(descriptor, &info)
        var buffer = [UInt8](repeating: 0, count: Int(info.st_size))
        return buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    }

    // MARK: 3. Cleanup

    /// A cache directory and a copy of it, `cleanupCount` files of 2 KB each, every other one 8 days old, on disk.
    static func makeCleanupTrees() throws -> (cache: SDImageCache, copy: String) {
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
        for i in 0..<cleanupCount {
            let name = SDImageCache.cachedFileName(forKey: "http://example.com/\(i).png")
            for path in [directory + "/" + name, copy + "/" + name] {
                posixWriteFile(blob, path, sequence: i)
                if i % 2 == 0 {
                    var times = [
                        timespec(tv_sec: eightDaysAgo, tv_nsec: 0), timespec(tv_sec: eightDaysAgo, tv_nsec: 0),
                    ]
                    guard utimensat(AT_FDCWD, path, &times, 0) == 0 else { throw CocoaError(.fileWriteUnknown) }
                }
            }
        }
        // Both trees on disk before timing: deleting a file whose blocks are still only in the page cache
        // (delayed allocation) is much cheaper than deleting one already written out.
        sync()
        return (cache, copy)
    }

    private static func registerCleanup() {
        let teardown: () -> Void = { removeDirectories() }
        BenchmarkCatalog.register(
            "cache.cleanup.deleteOldFiles", iterations: 3, warmup: 0, seconds: 60, teardown: teardown
        ) { benchmark in
            let (cache, _) = try makeCleanupTrees()
            let done = DispatchSemaphore(value: 0)
            cache.completionQueue = DispatchQueue(label: "sdport.bench.cleanup")
            benchmark.startMeasurement()
            cache.deleteOldFiles { done.signal() }
            done.wait()
            benchmark.stopMeasurement()
            precondition(
                cache.getDiskCount() == UInt(cleanupCount / 2), "deleteOldFiles must delete exactly the old half")
        }
        BenchmarkCatalog.register("cache.cleanup.find", iterations: 3, warmup: 0, seconds: 60, teardown: teardown) {
            benchmark in
            let (_, copy) = try makeCleanupTrees()
            benchmark.startMeasurement()
            try runProcess("/usr/bin/find", [copy, "-type", "f", "-mtime", "+7", "-delete"])
            benchmark.stopMeasurement()
            let left = try FileManager.default.contentsOfDirectory(atPath: copy).count
            precondition(left == cleanupCount / 2, "find must delete exactly the old half")
        }
        BenchmarkGoal.atMost(
            "cache.deleteOldFiles-vs-find", 1.5, [wall("cache.cleanup.deleteOldFiles")],
            over: [wall("cache.cleanup.find")],
            note:
                "deleteOldFiles over 20 000 files (half expired) against find -mtime +7 -delete, process start included"
        )
    }

    private static func runProcess(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(
                domain: "CacheBenchmarks", code: Int(process.terminationStatus),
                userInfo: [NSLocalizedDescriptionKey: "\(executable) \(arguments.joined(separator: " ")) failed"])
        }
    }
}
