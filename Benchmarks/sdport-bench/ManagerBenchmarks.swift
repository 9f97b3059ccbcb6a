import Foundation
import SDPort
import SDPortTestServer

/// Benchmarks of the manager layer. They measure and print; they assert nothing.
///
/// 1. A memory hit through `SDWebImageManager.loadImage` against the least it can cost: a bare `AutoPurgeCache`
///    lookup plus the hop to the completion queue. Both wait for each answer (round trip). Goal: ≤ 3×.
/// 2. Loading 500 distinct images cold (cache query, download, decode, store) through the manager against the
///    sum of its parts, each measured alone: 500 missing cache queries, 500 downloads with decoding through the
///    downloader, 500 stores to memory and disk. Goal: ≤ 1.2×. The stores alone against the same bytes written
///    with POSIX calls (temporary file + rename): goal ≤ 2×.
///
/// Completions are delivered on a private serial queue (`completionQueue`), so no main run loop is needed.
enum ManagerBenchmarks {
    static func run() throws {
        try memoryHit()
        try coldLoads()
    }

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    private static func format(_ nanoseconds: UInt64) -> String {
        String(format: "%.3f ms", Double(nanoseconds) / 1_000_000)
    }

    private static func makeImage(seed: Int) -> UIImage {
        let width = 256, height = 192
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

    private static func memoryHit() throws {
        let iterations = 100_000
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let queue = DispatchQueue(label: "sdport.bench.completions")
        let (cache, _, manager) = BenchmarkManager.make(cacheDirectory: directory.path, namespace: "bench", queue: queue)
        let url = URL(string: "http://127.0.0.1:1/hit.jpg")!
        let image = makeImage(seed: 1)
        cache.storeImage(toMemory: image, forKey: url.absoluteString)

        let bare = AutoPurgeCache<String, UIImage>()
        bare.setObject(image, forKey: url.absoluteString, cost: 1)
        let key = url.absoluteString
        let answered = DispatchSemaphore(value: 0)

        func measureBare() -> UInt64 {
            let start = now()
            for _ in 0..<iterations {
                let found = bare.object(forKey: key)
                queue.async { precondition(found != nil); answered.signal() }
                answered.wait()
            }
            return now() - start
        }
        func measureManager() -> UInt64 {
            let start = now()
            for _ in 0..<iterations {
                manager.loadImage(with: url) { found, _, _, cacheType, _, _ in
                    precondition(found != nil && cacheType == .memory)
                    answered.signal()
                }
                answered.wait()
            }
            return now() - start
        }
        _ = measureBare(); _ = measureManager()  // warm up
        let bareTime = (0..<3).map { _ in measureBare() }.min()!
        let managerTime = (0..<3).map { _ in measureManager() }.min()!
        print("memory hit, \(iterations) round trips (best of 3):")
        print("  AutoPurgeCache lookup + queue hop: \(format(bareTime)) (\(bareTime / UInt64(iterations)) ns each)")
        print("  SDWebImageManager.loadImage:       \(format(managerTime)) (\(managerTime / UInt64(iterations)) ns each)")
        BenchmarkGoal.record("manager.memory-hit-vs-bare-lookup", ratio: Double(managerTime) / Double(bareTime), atMost: 3)
        print(String(format: "  ratio: %.2fx (goal <= 3x)", Double(managerTime) / Double(bareTime)))
    }

    // MARK: 2. 500 cold loads

    private static func coldLoads() throws {
        let count = 500
        let server = SDPortTestServer()
        let images = (0..<8).map { makeImage(seed: $0 * 31) }
        let bodies = images.compactMap { SDWebImageCodersManager.shared.encodedData(with: $0, format: .jpeg) }
        guard bodies.count == images.count else {
            print("cold loads: cannot encode the test images (no JPEG coder)")
            return
        }
        for index in 0..<count {
            server.route("/cold/\(index).jpg", .data(bodies[index % bodies.count], contentType: "image/jpeg"))
        }
        try server.start()
        defer { server.stop() }
        let urls = (0..<count).map { server.url("/cold/\($0).jpg") }
        let queue = DispatchQueue(label: "sdport.bench.completions")

        /// A fresh cache in its own directory, answering on `queue`.
        func makeCache() throws -> (SDImageCache, URL) {
            let directory = try temporaryDirectory()
            let cache = SDImageCache(namespace: "bench", diskCacheDirectory: directory.path)
            cache.completionQueue = queue
            return (cache, directory)
        }
        /// Waits until the cache's io queue has written everything queued so far.
        func flush(_ cache: SDImageCache) {
            _ = cache.diskImageDataExists(withKey: "flush")
        }

        // Through the manager.
        func measureManager() throws -> UInt64 {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let (cache, _, manager) = BenchmarkManager.make(cacheDirectory: directory.path, namespace: "bench", queue: queue)
            let group = DispatchGroup()
            let start = now()
            for url in urls {
                group.enter()
                manager.loadImage(with: url) { image, _, _, _, finished, _ in
                    precondition(image != nil, "cold load failed")
                    if finished { group.leave() }
                }
            }
            group.wait()
            flush(cache)
            return now() - start
        }

        // The parts alone.
        func measureQueries() throws -> UInt64 {
            let (cache, directory) = try makeCache()
            defer { try? FileManager.default.removeItem(at: directory) }
            let group = DispatchGroup()
            let start = now()
            for url in urls {
                group.enter()
                cache.queryCacheOperation(forKey: url.absoluteString) { _, _, _ in group.leave() }
            }
            group.wait()
            return now() - start
        }
        func measureDownloads() -> (UInt64, [(URL, UIImage, Data)]) {
            let downloader = SDWebImageDownloader()
            downloader.completionQueue = queue
            let results = BenchResults()
            let group = DispatchGroup()
            let start = now()
            for url in urls {
                group.enter()
                downloader.downloadImage(with: url, options: [], progress: nil) { image, data, _, finished in
                    if let image, let data { results.append((url, image, data)) }
                    if finished { group.leave() }
                }
            }
            group.wait()
            let elapsed = now() - start
            downloader.invalidateSessionAndCancel(true)
            return (elapsed, results.values)
        }
        func measureStores(_ downloaded: [(URL, UIImage, Data)]) throws -> UInt64 {
            let (cache, directory) = try makeCache()
            defer { try? FileManager.default.removeItem(at: directory) }
            let start = now()
            for (url, image, data) in downloaded {
                cache.store(image, imageData: data, forKey: url.absoluteString, toDisk: true, completion: nil)
            }
            flush(cache)
            return now() - start
        }

        /// The anchor for the stores: the same bytes written with POSIX calls, each to a temporary file renamed
        /// into place (what makes a write crash-safe, as the cache's writes are), one after the other as the
        /// cache's serial io queue writes them.
        func measurePOSIXWrites(_ downloaded: [(URL, UIImage, Data)]) throws -> UInt64 {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let start = now()
            for (index, (_, _, data)) in downloaded.enumerated() {
                let path = directory.path + "/\(index).jpg", temporary = directory.path + "/.tmp-\(index)"
                let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
                precondition(descriptor >= 0, "open failed")
                let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                precondition(written == data.count, "short write")
                close(descriptor)
                precondition(rename(temporary, path) == 0, "rename failed")
            }
            return now() - start
        }

        _ = try measureManager()  // warm up (connections, coders, file system)
        var managerTimes: [UInt64] = []
        var partTimes: [(UInt64, UInt64, UInt64)] = []
        var posixTimes: [UInt64] = []
        for _ in 0..<3 {
            managerTimes.append(try measureManager())
            let query = try measureQueries()
            let (download, downloaded) = measureDownloads()
            precondition(downloaded.count == count, "downloads failed")
            let store = try measureStores(downloaded)
            posixTimes.append(try measurePOSIXWrites(downloaded))
            partTimes.append((query, download, store))
        }
        let managerTime = managerTimes.min()!
        let query = partTimes.map(\.0).min()!, download = partTimes.map(\.1).min()!, store = partTimes.map(\.2).min()!
        let sum = query + download + store
        print("\(count) distinct images cold, 256x192 JPEG (best of 3):")
        print("  parts: cache queries \(format(query)), downloads+decode \(format(download)), stores \(format(store))")
        print("  sum of parts:               \(format(sum))")
        print("  through SDWebImageManager:  \(format(managerTime))")
        BenchmarkGoal.record("manager.cold-loads-vs-sum-of-parts", ratio: Double(managerTime) / Double(sum), atMost: 1.2)
        print(String(format: "  ratio: %.2fx (goal <= 1.2x)", Double(managerTime) / Double(sum)))
        let posix = posixTimes.min()!
        print("  the same bytes written with POSIX calls (temporary file + rename, one by one): \(format(posix))")
        BenchmarkGoal.record("manager.cold-loads.stores-vs-POSIX-temp+rename", ratio: Double(store) / Double(posix), atMost: 2)
        print(String(format: "  stores: %.2fx the POSIX writes (goal <= 2x)", Double(store) / Double(posix)))
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
