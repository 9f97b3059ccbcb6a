import Benchmark
import Foundation
import Glibc
import SDPort
import SDPortTestServer

/// How cost grows with work: each benchmark of this suite is one size, and the report fits a power law to the
/// sizes of a curve (`BenchmarkCurve`):
/// - `deleteOldFiles` against the files on disk, 10³ to 10⁵ (half of them expired): linear, exponent ≤ 1.1;
/// - the memory cache's sets and gets of 1 000 hot keys against the entries it holds, 10³ to 10⁶: flat, exponent
///   ≤ 0.15 (time per operation); beside it, gets spread over all entries, where the CPU's caches show (no goal);
/// - a cold load through the manager (query, download, decode, store) against the image's size, 0.1 to 18 MP:
///   linear, exponent ≤ 1.1;
/// - the pipeline of `DownloaderBenchmarks` (200 JPEGs) against `maxConcurrentDownloads`, 1 to 12: no power law,
///   drawn to show where more concurrency stops paying on two cores.
/// The sizes keep the whole suite to a few minutes on two cores.
enum ScaleBenchmarks {
    static let cleanupSizes = [1_000, 3_162, 10_000, 31_623, 100_000]
    static let cacheSizes = [1_000, 10_000, 100_000, 1_000_000]
    static let getsPerIteration = 100_000
    static let megapixels = [0.1, 0.5, 2.0, 8.0, 18.0]
    static let concurrencies = [1, 2, 3, 4, 6, 8, 12]

    static func register() {
        registerCleanup()
        registerMemoryCache()
        registerColdLoads()
        registerPipeline()
    }

    // MARK: Cleanup

    private static func registerCleanup() {
        for count in cleanupSizes {
            BenchmarkCatalog.register(
                "scale.cleanup.\(count)", operations: count, iterations: count > 10_000 ? 1 : 2,
                warmup: 0, seconds: 120, teardown: { CacheBenchmarks.removeDirectories() }
            ) { benchmark in
                let cache = try makeCacheTree(files: count)
                let done = DispatchSemaphore(value: 0)
                cache.completionQueue = DispatchQueue(label: "sdport.bench.cleanup")
                benchmark.startMeasurement()
                cache.deleteOldFiles { done.signal() }
                done.wait()
                benchmark.stopMeasurement()
                precondition(
                    cache.getDiskCount() == UInt(count - (count + 1) / 2),
                    "deleteOldFiles must delete exactly the old half")
            }
        }
        BenchmarkCurve.define(
            BenchmarkCurve(
                name: "cleanup", title: "deleteOldFiles against the files on disk (half expired)",
                xLabel: "files on disk",
                yLabel: "ms", yScale: 1e-3,
                points: cleanupSizes.map { .init(x: Double($0), term: wall("scale.cleanup.\($0)")) }, fitted: true))
        BenchmarkGoal.exponentAtMost(
            "scale.cleanup-exponent", 1.1, of: "cleanup",
            note: "deleteOldFiles grows linearly with the files it looks at")
    }

    /// A cache directory of `files` files of 2 KB, every other one 8 days old, synced to disk.
    static func makeCacheTree(files: Int) throws -> SDImageCache {
        let root = try CacheBenchmarks.makeTemporaryDirectory("scale-cleanup")
        let cache = SDImageCache(namespace: "bench", diskCacheDirectory: root)
        let directory = cache.diskCachePath
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let blob = Data(repeating: 0xAB, count: 2_048)
        let eightDaysAgo = Int(Date().timeIntervalSince1970) - 8 * 24 * 3600
        for i in 0..<files {
            let path = directory + "/" + SDImageCache.cachedFileName(forKey: "http://example.com/\(i).png")
            CacheBenchmarks.posixWriteFile(blob, path, sequence: i)
            if i % 2 == 0 {
                var times = [timespec(tv_sec: eightDaysAgo, tv_nsec: 0), timespec(tv_sec: eightDaysAgo, tv_nsec: 0)]
                guard utimensat(AT_FDCWD, path, &times, 0) == 0 else { throw CocoaError(.fileWriteUnknown) }
            }
        }
        sync()
        return cache
    }

    // MARK: Memory cache

    /// The hot keys every size is measured with: the same 1 000 entries of a cache holding `count`, so a curve shows
    /// what the cache's size costs its structure, not which level of the CPU's caches a million entries fall out of
    /// (`memory-cache-get-random` shows that, with keys spread over the whole cache, and has no goal).
    static let hotKeys = 1_000

    private static func registerMemoryCache() {
        for count in cacheSizes {
            let filled = FilledCache(count: count)
            // 1 000 sets of new keys into a cache holding `count` entries; removed again after the measurement.
            BenchmarkCatalog.register(
                "scale.memory-set.\(count)", operations: hotKeys, iterations: 200, warmup: 5,
                seconds: 20, setup: { filled.fill() }
            ) { benchmark in
                let (cache, _, _, fresh) = filled.contents
                benchmark.startMeasurement()
                for i in 0..<hotKeys { cache.setObject(CacheBenchmarks.Payload(i), forKey: fresh[i], cost: 1) }
                benchmark.stopMeasurement()
                for key in fresh { cache.removeObject(forKey: key) }
            }
            BenchmarkCatalog.register(
                "scale.memory-get.\(count)", operations: getsPerIteration, iterations: 20, warmup: 1,
                seconds: 20, setup: { filled.fill() }
            ) { _ in
                var sink = 0
                let (cache, keys, _, _) = filled.contents
                for round in 0..<(getsPerIteration / hotKeys) {
                    for i in 0..<hotKeys {
                        sink &+= cache.object(forKey: keys[(i * 7919 + round) % hotKeys])?.value ?? 0
                    }
                }
                blackHole(sink)
            }
            BenchmarkCatalog.register(
                "scale.memory-get-random.\(count)", operations: getsPerIteration, iterations: 20,
                warmup: 1, seconds: 20, setup: { filled.fill() }
            ) { _ in
                var sink = 0
                let (cache, keys, order, _) = filled.contents
                for index in order { sink &+= cache.object(forKey: keys[index])?.value ?? 0 }
                blackHole(sink)
            }
        }
        for (kind, name, operations, goal) in [
            ("set", "memory-set", hotKeys, true), ("get", "memory-get", getsPerIteration, true),
            ("get", "memory-get-random", getsPerIteration, false),
        ] {
            let curve = "memory-cache-" + name.dropFirst("memory-".count)
            BenchmarkCurve.define(
                BenchmarkCurve(
                    name: curve,
                    title: goal
                        ? "AutoPurgeCache \(kind)s of 1 000 hot keys against the entries it holds"
                        : "AutoPurgeCache gets of keys spread over all its entries (CPU caches included)",
                    xLabel: "entries", yLabel: "ns per \(kind)", yScale: 1e3,
                    points: cacheSizes.map {
                        .init(x: Double($0), term: wall("scale.\(name).\($0)", 1 / Double(operations)))
                    },
                    fitted: true))
            if goal {
                BenchmarkGoal.exponentAtMost(
                    "scale.\(curve)-exponent", 0.15, of: curve,
                    note: "the memory cache's time per \(kind) stays flat from 10³ to 10⁶ entries")
            }
        }
    }

    /// A cache of `count` entries, its keys, a random order of gets over all of them, and 1 000 keys it does not
    /// hold; made in the benchmark's setup (not measured).
    final class FilledCache: @unchecked Sendable {
        /// Set once by `fill()` (the setup hook), read by the iterations after it, all on the runner's thread.
        private var stored: (AutoPurgeCache<String, CacheBenchmarks.Payload>, [String], [Int], [String])?
        private let count: Int

        init(count: Int) { self.count = count }

        func fill() {
            let keys = (0..<count).map { "http://example.com/images/\($0).jpg" }
            let cache = AutoPurgeCache<String, CacheBenchmarks.Payload>(purgesOnMemoryWarning: false)
            for i in 0..<count { cache.setObject(CacheBenchmarks.Payload(i), forKey: keys[i], cost: 1) }
            var generator = DownloaderBenchmarks.SplitMix(seed: UInt64(count))
            let order = (0..<ScaleBenchmarks.getsPerIteration).map { _ in Int(generator.next() % UInt64(count)) }
            let fresh = (0..<ScaleBenchmarks.hotKeys).map { "http://example.com/new/\($0).jpg" }
            stored = (cache, keys, order, fresh)
        }

        var contents: (AutoPurgeCache<String, CacheBenchmarks.Payload>, [String], [Int], [String]) { stored! }
    }

    // MARK: Cold load against image size

    private static func registerColdLoads() {
        for size in megapixels {
            let label = String(format: "%g", size)
            let fixture = Result<(SDPortTestServer, URL), Error> {
                let height = Int((size * 1e6 / 1.5).squareRoot())
                let width = Int(Double(height) * 1.5)
                let server = SDPortTestServer()
                server.route(
                    "/scale.jpg", .data(try photoLikeJPEG(width: width, height: height), contentType: "image/jpeg"))
                try server.start()
                return (server, server.url("/scale.jpg"))
            }
            BenchmarkCatalog.register(
                "scale.cold-load.\(label)MP", iterations: size >= 8 ? 3 : 6, warmup: 1, seconds: 60,
                setup: { _ = try fixture.get() }, teardown: { CacheBenchmarks.removeDirectories() }
            ) { benchmark in
                let url = try fixture.get().1
                let directory = try CacheBenchmarks.makeTemporaryDirectory("scale-cold")
                let queue = DispatchQueue(label: "sdport.bench.scale")
                let (cache, _, manager) = BenchmarkManager.make(
                    cacheDirectory: directory, namespace: "scale", queue: queue)
                let done = DispatchSemaphore(value: 0)
                benchmark.startMeasurement()
                manager.loadImage(with: url) { image, _, _, _, finished, _ in
                    precondition(image != nil, "cold load failed")
                    if finished { done.signal() }
                }
                done.wait()
                _ = cache.diskImageDataExists(withKey: "flush")  // the store to disk has happened
                benchmark.stopMeasurement()
            }
        }
        BenchmarkCurve.define(
            BenchmarkCurve(
                name: "cold-load", title: "A cold load (query, download, decode, store) against the image's size",
                xLabel: "megapixels", yLabel: "ms", yScale: 1e-3,
                points: megapixels.map { .init(x: $0, term: wall("scale.cold-load.\(String(format: "%g", $0))MP")) },
                fitted: true))
        BenchmarkGoal.exponentAtMost(
            "scale.cold-load-exponent", 1.1, of: "cold-load",
            note: "a cold load grows linearly with the pixels it decodes")
    }

    /// Smooth gradients with a little noise, quality 90, 4:2:0.
    static func photoLikeJPEG(width: Int, height: Int) throws -> Data {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        var generator = DownloaderBenchmarks.SplitMix(seed: 5)
        for y in 0..<height {
            for x in 0..<width {
                let index = (y * width + x) * 3
                let noise = Int(generator.next() & 0x0F)
                pixels[index] = UInt8(truncatingIfNeeded: x * 255 / width + noise)
                pixels[index + 1] = UInt8(truncatingIfNeeded: y * 255 / height + noise)
                pixels[index + 2] = UInt8(truncatingIfNeeded: (x + y) / 40 + noise)
            }
        }
        return try BenchmarkManager.encodeJPEG(rgb: pixels, width: width, height: height)
    }

    // MARK: Pipeline against maxConcurrentDownloads

    private static func registerPipeline() {
        for concurrency in concurrencies {
            BenchmarkCatalog.register(
                "scale.pipeline.\(concurrency)", iterations: 5, warmup: 1, seconds: 60,
                setup: { _ = try DownloaderBenchmarks.fixture() }
            ) { _ in
                try DownloaderBenchmarks.runDownloader(
                    urls: try DownloaderBenchmarks.fixture().imageURLs, expectImages: true,
                    maxConcurrentDownloads: concurrency)
            }
        }
        BenchmarkCurve.define(
            BenchmarkCurve(
                name: "pipeline-concurrency",
                title: "The pipeline (200 JPEGs, download + decode) against maxConcurrentDownloads",
                xLabel: "maxConcurrentDownloads", yLabel: "ms", yScale: 1e-3,
                points: concurrencies.map { .init(x: Double($0), term: wall("scale.pipeline.\($0)")) }, fitted: false))
    }
}
