import Benchmark
import Foundation
import SDPort
import SDPortTestServer

/// Benchmarks of the manager layer.
///
/// 1. A memory hit through `SDWebImageManager.loadImage` against the least it can cost: a bare `AutoPurgeCache`
///    lookup plus the hop to the completion queue. Both wait for each answer (round trip); an iteration is 1 000 of
///    them. Goal: ≤ 3×. Its mallocs per load are the "one cached load" figure of the report.
/// 2. Loading 500 distinct images cold (cache query, download, decode, store) through the manager against the
///    sum of its parts, each a benchmark of its own: 500 missing cache queries, 500 downloads with decoding through
///    the downloader, 500 stores to memory and disk. Goal: ≤ 1.2×. The stores alone against the same bytes written
///    with POSIX calls (temporary file + rename): goal ≤ 2×.
///
/// Completions are delivered on a private serial queue (`completionQueue`), so no main run loop is needed.
enum ManagerBenchmarks {
    static let hitRoundTrips = 1_000
    static let coldCount = 500

    static func register() {
        registerMemoryHit()
        registerColdLoads()
    }

    private static func makeImage(seed: Int) -> UIImage {
        let width = 256
        let height = 192
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let index = (y * width + x) * 4
                pixels[index] = UInt8((x + seed) & 0xFF)
                pixels[index + 1] = UInt8((y * 3 + seed) & 0xFF)
                pixels[index + 2] = UInt8((x ^ y) & 0xFF)
            }
        }
        return UIImage(pixelWidth: width, pixelHeight: height, pixels: pixels, hasAlpha: false, format: .jpeg)
    }

    private static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sdport-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    // MARK: 1. Memory hit

    /// A manager with one image in memory, and a bare LRU holding the same image, made once per process.
    struct HitFixture: @unchecked Sendable {
        let manager: SDWebImageManager
        let bare: AutoPurgeCache<String, UIImage>
        let url: URL
        let queue: DispatchQueue
    }

    private static let hitFixture: HitFixture = {
        let directory = try! temporaryDirectory()
        let queue = DispatchQueue(label: "sdport.bench.completions")
        let (cache, _, manager) = BenchmarkManager.make(
            cacheDirectory: directory.path, namespace: "bench", queue: queue)
        let url = URL(string: "http://127.0.0.1:1/hit.jpg")!
        let image = makeImage(seed: 1)
        cache.storeImage(toMemory: image, forKey: url.absoluteString)
        let bare = AutoPurgeCache<String, UIImage>()
        bare.setObject(image, forKey: url.absoluteString, cost: 1)
        return HitFixture(manager: manager, bare: bare, url: url, queue: queue)
    }()

    private static func registerMemoryHit() {
        let answered = DispatchSemaphore(value: 0)
        BenchmarkCatalog.register(
            "manager.memory-hit.bare-lookup", operations: hitRoundTrips, iterations: 50, warmup: 3,
            setup: { _ = hitFixture }
        ) { _ in
            let fixture = hitFixture
            let key = fixture.url.absoluteString
            for _ in 0..<hitRoundTrips {
                let found = fixture.bare.object(forKey: key)
                fixture.queue.async {
                    precondition(found != nil)
                    answered.signal()
                }
                answered.wait()
            }
        }
        BenchmarkCatalog.register(
            "manager.memory-hit.loadImage", operations: hitRoundTrips, reportsMallocs: true,
            iterations: 50, warmup: 3, setup: { _ = hitFixture }
        ) { _ in
            let fixture = hitFixture
            for _ in 0..<hitRoundTrips {
                fixture.manager.loadImage(with: fixture.url) { found, _, _, cacheType, _, _ in
                    precondition(found != nil && cacheType == .memory)
                    answered.signal()
                }
                answered.wait()
            }
        }
        BenchmarkGoal.atMost(
            "manager.memory-hit-vs-bare-lookup", 3, [wall("manager.memory-hit.loadImage")],
            over: [wall("manager.memory-hit.bare-lookup")],
            note: "a memory hit through SDWebImageManager.loadImage against an AutoPurgeCache lookup + queue hop")
    }

    // MARK: 2. 500 cold loads

    /// The server with 500 routes (8 distinct 256×192 JPEGs) and the images downloaded once, for the stores.
    struct ColdFixture: @unchecked Sendable {
        let server: SDPortTestServer
        let urls: [URL]
        let queue: DispatchQueue
    }

    private static let coldFixture: Result<ColdFixture, Error> = Result {
        let server = SDPortTestServer()
        let bodies = (0..<8).compactMap {
            SDWebImageCodersManager.shared.encodedData(with: makeImage(seed: $0 * 31), format: .jpeg)
        }
        guard bodies.count == 8 else {
            throw DownloaderBenchmarks.BenchmarkError.failed("cannot encode the test images (no JPEG coder)")
        }
        for index in 0..<coldCount {
            server.route("/cold/\(index).jpg", .data(bodies[index % bodies.count], contentType: "image/jpeg"))
        }
        try server.start()
        return ColdFixture(
            server: server, urls: (0..<coldCount).map { server.url("/cold/\($0).jpg") },
            queue: DispatchQueue(label: "sdport.bench.completions"))
    }

    private static let downloaded: Result<[(URL, UIImage, Data)], Error> = Result {
        let downloaded = try download(try coldFixture.get())
        guard downloaded.count == coldCount else {
            throw DownloaderBenchmarks.BenchmarkError.failed("downloads failed")
        }
        return downloaded
    }

    /// A fresh cache in its own directory, answering on `queue`.
    private static func makeCache(_ queue: DispatchQueue) throws -> (SDImageCache, URL) {
        let directory = try temporaryDirectory()
        let cache = SDImageCache(namespace: "bench", diskCacheDirectory: directory.path)
        cache.completionQueue = queue
        return (cache, directory)
    }

    /// Waits until the cache's io queue has written everything queued so far.
    private static func flush(_ cache: SDImageCache) {
        _ = cache.diskImageDataExists(withKey: "flush")
    }

    private static func download(_ fixture: ColdFixture) throws -> [(URL, UIImage, Data)] {
        let downloader = SDWebImageDownloader()
        downloader.completionQueue = fixture.queue
        let results = BenchResults()
        let group = DispatchGroup()
        for url in fixture.urls {
            group.enter()
            downloader.downloadImage(with: url, options: [], progress: nil) { image, data, _, finished in
                if let image, let data { results.append((url, image, data)) }
                if finished { group.leave() }
            }
        }
        group.wait()
        downloader.invalidateSessionAndCancel(true)
        return results.values
    }

    private static func registerColdLoads() {
        func part(_ name: String, _ body: @escaping (Benchmark, ColdFixture) throws -> Void) {
            BenchmarkCatalog.register(
                "manager.cold.\(name)", operations: coldCount, iterations: 5, warmup: 1,
                setup: { _ = try coldFixture.get() }
            ) { benchmark in
                try body(benchmark, try coldFixture.get())
            }
        }
        part("loads") { benchmark, fixture in
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let (cache, _, manager) = BenchmarkManager.make(
                cacheDirectory: directory.path, namespace: "bench", queue: fixture.queue)
            let group = DispatchGroup()
            benchmark.startMeasurement()
            for url in fixture.urls {
                group.enter()
                manager.loadImage(with: url) { image, _, _, _, finished, _ in
                    precondition(image != nil, "cold load failed")
                    if finished { group.leave() }
                }
            }
            group.wait()
            flush(cache)
            benchmark.stopMeasurement()
        }
        part("queries") { benchmark, fixture in
            let (cache, directory) = try makeCache(fixture.queue)
            defer { try? FileManager.default.removeItem(at: directory) }
            let group = DispatchGroup()
            benchmark.startMeasurement()
            for url in fixture.urls {
                group.enter()
                cache.queryCacheOperation(forKey: url.absoluteString) { _, _, _ in group.leave() }
            }
            group.wait()
            benchmark.stopMeasurement()
        }
        part("downloads") { _, fixture in
            guard try download(fixture).count == coldCount else {
                throw DownloaderBenchmarks.BenchmarkError.failed("downloads failed")
            }
        }
        part("stores") { benchmark, fixture in
            let downloaded = try downloaded.get()
            let (cache, directory) = try makeCache(fixture.queue)
            defer { try? FileManager.default.removeItem(at: directory) }
            benchmark.startMeasurement()
            for (url, image, data) in downloaded {
                cache.store(image, imageData: data, forKey: url.absoluteString, toDisk: true, completion: nil)
            }
            flush(cache)
            benchmark.stopMeasurement()
        }
        // The anchor for the stores: the same bytes written with POSIX calls, each to a temporary file renamed
        // into place (what makes a write crash-safe, as the cache's writes are), one after the other as the
        // cache's serial io queue writes them.
        part("posix-writes") { benchmark, _ in
            let downloaded = try downloaded.get()
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            benchmark.startMeasurement()
            for (index, (_, _, data)) in downloaded.enumerated() {
                let path = directory.path + "/\(index).jpg"
                let temporary = directory.path + "/.tmp-\(index)"
                let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
                precondition(descriptor >= 0, "open failed")
                let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                precondition(written == data.count, "short write")
                close(descriptor)
                precondition(rename(temporary, path) == 0, "rename failed")
            }
            benchmark.stopMeasurement()
        }
        BenchmarkGoal.atMost(
            "manager.cold-loads-vs-sum-of-parts", 1.2, [wall("manager.cold.loads")],
            over: [wall("manager.cold.queries"), wall("manager.cold.downloads"), wall("manager.cold.stores")],
            note: "500 cold loads through the manager against its parts measured alone")
        BenchmarkGoal.atMost(
            "manager.cold-loads.stores-vs-POSIX-temp+rename", 2, [wall("manager.cold.stores")],
            over: [wall("manager.cold.posix-writes")],
            note: "500 stores to memory and disk against the same bytes written with POSIX temp file + rename")
    }

    /// Results gathered from the downloader's queue, under a lock.
    private final class BenchResults: @unchecked Sendable {
        /// Guards `storage`.
        private let lock = NSLock()
        private var storage: [(URL, UIImage, Data)] = []
        func append(_ value: (URL, UIImage, Data)) { lock.withLock { storage.append(value) } }
        var values: [(URL, UIImage, Data)] { lock.withLock { storage } }
    }
}
