import Foundation
import SDPort

/// What the cache tests run in child processes (`sdport-cache-worker`), and what the parent checks afterwards:
/// deterministic payloads per key, a store-everything run for the kill test (CACHE-05), and a mixed run of stores,
/// queries, removals, `deleteOldFiles` and `clearDisk` for several processes sharing one directory (chapter 08's
/// multi-process guarantees). Every read is checked against the payload of its key.
public enum CacheWorkload {
    /// The cache namespace every worker uses, so all of them share one `diskCachePath`.
    public static let namespace = "worker"

    public static func key(_ index: Int) -> String { "http://example.com/worker/\(index).png" }

    /// The bytes stored under `key(index)`: a PNG whose size and pixels depend on the index (the PNG encoder is
    /// deterministic, so every process computes the same bytes, and a torn file never equals a payload).
    public static func payload(_ index: Int) throws -> Data {
        let width = 24 + index % 40
        let height = 16 + index % 24
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for offset in stride(from: 0, to: pixels.count, by: 4) {
            pixels[offset] = UInt8(truncatingIfNeeded: index)
            pixels[offset + 1] = UInt8(truncatingIfNeeded: index >> 8)
            pixels[offset + 2] = UInt8(truncatingIfNeeded: offset / 4)
            pixels[offset + 3] = 255
        }
        let image = UIImage(
            pixelWidth: width, pixelHeight: height, pixels: pixels, hasAlpha: false, scale: 1, format: .png)
        return try SDWebImagePNGCoder.shared.encode(image)
    }

    /// A cache over `directory` whose completions run on a queue of its own (a worker never drains main).
    public static func cache(in directory: String) -> SDImageCache {
        let cache = SDImageCache(namespace: namespace, diskCacheDirectory: directory)
        cache.completionQueue = DispatchQueue(label: "sdport.cache-worker.completions")
        return cache
    }

    /// Stores `payload(i)` under `key(i)` for every i in `first..<first + count`, one after another (the kill
    /// test's child, and the last phase of the multi-process test).
    public static func storeAll(in directory: String, count: Int, first: Int = 0) throws {
        let cache = cache(in: directory)
        for index in first..<first + count {
            try cache.writeImageDataToDisk(try payload(index), forKey: key(index))
        }
    }

    /// What a mixed run did and saw.
    public struct Report: Codable, Sendable, Equatable {
        public var stores = 0, storeFailures = 0
        public var reads = 0, hits = 0, misses = 0
        /// Reads that returned bytes which are not the key's payload: a torn or foreign file.
        public var wrongReads = 0
        public var decodedHits = 0, undecodedHits = 0
        public var removals = 0, cleanups = 0, clears = 0
        public init() {}

        /// This report with `other`'s counts added (the totals of several workers).
        public func adding(_ other: Report) -> Report {
            var sum = self
            sum.stores += other.stores
            sum.storeFailures += other.storeFailures
            sum.reads += other.reads
            sum.hits += other.hits
            sum.misses += other.misses
            sum.wrongReads += other.wrongReads
            sum.decodedHits += other.decodedHits
            sum.undecodedHits += other.undecodedHits
            sum.removals += other.removals
            sum.cleanups += other.cleanups
            sum.clears += other.clears
            return sum
        }
    }

    /// The counts of each kind of operation `mixed` runs for these arguments (stores, reads, removals, cleanups,
    /// clears; the rest zero): the kinds depend on the seed only, never on what the cache answered.
    public static func planned(seed: UInt64, operations: Int, keys: Int) -> Report {
        var random = SeededGenerator(seed: seed)
        var report = Report()
        for _ in 0..<operations {
            _ = random.next(upperBound: UInt64(keys))
            switch random.next(upperBound: 100) {
            case 0..<50: report.stores += 1
            case 50..<80: report.reads += 1
            case 80..<94: report.removals += 1
            case 94..<98: report.cleanups += 1
            default: report.clears += 1
            }
        }
        return report
    }

    /// `operations` random operations over `keys` keys, from `seed`: stores (50 %), reads of the bytes and of the
    /// decoded image (30 %), removals (14 %), `deleteOldFiles` (4 %) and `clearDisk` (2 %).
    public static func mixed(in directory: String, seed: UInt64, operations: Int, keys: Int) throws -> Report {
        let cache = cache(in: directory)
        let payloads = try (0..<keys).map(payload)
        var random = SeededGenerator(seed: seed)
        var report = Report()
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<operations {
            let index = Int(random.next(upperBound: UInt64(keys)))
            let roll = random.next(upperBound: 100)
            switch roll {
            case 0..<50:
                report.stores += 1
                do { try cache.writeImageDataToDisk(payloads[index], forKey: key(index)) } catch {
                    report.storeFailures += 1
                }
            case 50..<65:
                report.reads += 1
                if let data = cache.diskImageData(forKey: key(index)) {
                    report.hits += 1
                    if data != payloads[index] { report.wrongReads += 1 }
                } else {
                    report.misses += 1
                }
            case 65..<80:
                report.reads += 1
                // `.queryDiskSync` calls the block before returning, on this thread.
                nonisolated(unsafe) var answer: (UIImage?, Data?, SDImageCacheType) = (nil, nil, .none)
                cache.clearMemory()
                cache.queryCacheOperation(forKey: key(index), options: .queryDiskSync) { answer = ($0, $1, $2) }
                if let data = answer.1 {
                    report.hits += 1
                    if data != payloads[index] { report.wrongReads += 1 }
                    if answer.0 != nil { report.decodedHits += 1 } else { report.undecodedHits += 1 }
                } else {
                    report.misses += 1
                }
            case 80..<94:
                report.removals += 1
                cache.removeImage(forKey: key(index), fromDisk: true) { done.signal() }
                done.wait()
            case 94..<98:
                report.cleanups += 1
                cache.deleteOldFiles { done.signal() }
                done.wait()
            default:
                report.clears += 1
                cache.clearDisk { done.signal() }
                done.wait()
            }
        }
        return report
    }

    /// Files under cache names in `directory` (the cache's disk path) whose bytes are no key's payload.
    public static func tornFiles(in cachePath: String, keys: Int) throws -> [String] {
        var expected: [String: Data] = [:]
        for index in 0..<keys { expected[SDImageCache.cachedFileName(forKey: key(index))] = try payload(index) }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: cachePath)) ?? []
        return names.filter { name in
            guard !name.hasPrefix(".") else { return false }  // the writers' hidden temporaries
            // Gone meanwhile.
            guard let bytes = FileManager.default.contents(atPath: cachePath + "/" + name) else { return false }
            return bytes != expected[name]
        }
    }
}
