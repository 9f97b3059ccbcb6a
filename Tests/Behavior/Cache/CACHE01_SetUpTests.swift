import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// `SDImageCache` set-up: the singleton, the config defaults, paths and the memory limits (CACHE-01 … 03).
final class CACHE01_SetUpTests: CACHETestCase {
    /// Parity: CACHE-01 — one shared instance; the config defaults of 4.4.8. (Reads paths only, writes nothing.)
    func test_CACHE01_sharedInstanceAndConfigDefaults() {
        XCTAssertTrue(SDImageCache.shared === SDImageCache.shared)
        let config = SDImageCacheConfig()
        XCTAssertTrue(config.shouldDecompressImages)
        XCTAssertTrue(config.shouldDisableiCloud)
        XCTAssertTrue(config.shouldCacheImagesInMemory)
        XCTAssertTrue(config.shouldUseWeakMemoryCache)
        XCTAssertEqual(config.maxCacheAge, 604_800)
        XCTAssertEqual(config.maxCacheSize, 0, "0 means no size limit")
        XCTAssertEqual(config.diskCacheExpireType, .modificationDate)
        XCTAssertEqual(config.diskCacheWritingOptions, .atomic)
        XCTAssertEqual(config.diskCacheReadingOptions, [])
        XCTAssertEqual(cache.config.maxCacheAge, 604_800, "a new cache starts with the defaults")
        XCTAssertEqual(cache.maxMemoryCost, 0)
        XCTAssertEqual(cache.maxMemoryCountLimit, 0)
    }

    /// Parity: CACHE-02 — `init(namespace:diskCacheDirectory:)`: the directory + the full namespace; the memory
    /// cache is named after the full namespace; a nil directory means `makeDiskCachePath(namespace)` itself.
    func test_CACHE02_initWithNamespaceAndDirectory() {
        XCTAssertEqual(cache.diskCachePath, directory.path + "/com.hackemist.SDWebImageCache.test")
        XCTAssertEqual(cache.memCache.name, "com.hackemist.SDWebImageCache.test")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.diskCachePath), "nothing is created before a write")

        let withoutDirectory = SDImageCache(namespace: "other", diskCacheDirectory: nil)
        XCTAssertEqual(withoutDirectory.diskCachePath, withoutDirectory.makeDiskCachePath("other"))
        XCTAssertEqual(withoutDirectory.diskCachePath, SDImageCache.userCachesDirectory + "/other")
    }

    /// Parity: CACHE-03 — maxMemoryCost and maxMemoryCountLimit are the memory cache's limits.
    func test_CACHE03_memoryLimitsMapToTheMemoryCache() {
        cache.maxMemoryCost = 1_000
        cache.maxMemoryCountLimit = 3
        XCTAssertEqual(cache.memCache.totalCostLimit, 1_000)
        XCTAssertEqual(cache.memCache.countLimit, 3)
        XCTAssertEqual(cache.maxMemoryCost, 1_000)

        for i in 0..<5 {
            cache.store(CACHETestImages.opaque(width: 2, height: 2), forKey: "k\(i)", toDisk: false, completion: nil)
        }
        XCTAssertEqual(cache.memCache.count, 3, "the count limit holds")
        XCTAssertNil(cache.imageFromMemoryCache(forKey: "k0"))
        XCTAssertNotNil(cache.imageFromMemoryCache(forKey: "k4"))

        cache.store(CACHETestImages.opaque(width: 40, height: 40), forKey: "big", toDisk: false, completion: nil)
        XCTAssertNil(cache.imageFromMemoryCache(forKey: "big"), "1 600 pixels do not fit a 1 000 cost limit")
    }

    /// Parity: CACHE-03 — cost = width × height × scale² (pixels), times the frame count for animated images.
    func test_CACHE03_costIsPixelsTimesFrames() {
        let retina = CACHETestImages.opaque(width: 20, height: 10, scale: 2)
        XCTAssertEqual(retina.size.width, 10)
        XCTAssertEqual(retina.sd_memoryCost, 200, "10 × 5 points × 2² = 200 pixels")
        cache.store(retina, forKey: "retina", toDisk: false, completion: nil)
        XCTAssertEqual(cache.memCache.totalCost, 200)

        let animated = CACHETestImages.animated(width: 4, height: 5, frames: 3)
        XCTAssertEqual(animated.sd_memoryCost, 60, "4 × 5 pixels × 3 frames (4.4.4+)")
        cache.store(animated, forKey: "animated", toDisk: false, completion: nil)
        XCTAssertEqual(cache.memCache.totalCost, 260)
    }

    /// Parity: CACHE-15 — `sd_memoryCost` is settable: the set value replaces the computed one, the memory cache
    /// charges it (total cost, and eviction against `maxMemoryCost`), and it belongs to that image only.
    func test_CACHE15_setMemoryCostIsWhatTheMemoryCacheCharges() {
        let image = CACHETestImages.opaque(width: 2, height: 2)
        XCTAssertEqual(image.sd_memoryCost, 4, "computed until set")
        image.sd_memoryCost = 700
        XCTAssertEqual(image.sd_memoryCost, 700)
        cache.store(image, forKey: "costly", toDisk: false, completion: nil)
        XCTAssertEqual(cache.memCache.totalCost, 700)

        cache.maxMemoryCost = 1_000
        let second = CACHETestImages.opaque(width: 2, height: 2)
        second.sd_memoryCost = 600
        cache.store(second, forKey: "second", toDisk: false, completion: nil)
        // The weak side table would still hand back `image` while the test holds it, so look at the costed store.
        XCTAssertEqual(cache.memCache.keysByRecency, ["second"], "700 + 600 exceed 1 000: the older one goes")
        XCTAssertEqual(cache.memCache.totalCost, 600)

        let free = CACHETestImages.opaque(width: 40, height: 40)
        free.sd_memoryCost = 0
        XCTAssertEqual(free.sd_memoryCost, 0, "a set zero is used, as 4.4.8 uses any number it finds")
        cache.store(free, forKey: "free", toDisk: false, completion: nil)
        XCTAssertEqual(Set(cache.memCache.keysByRecency), ["second", "free"], "1 600 pixels, but charged nothing")
        XCTAssertEqual(cache.memCache.totalCost, 600)
        XCTAssertEqual(free.withScale(2).sd_memoryCost, 1_600, "a scaled copy computes its own")
    }

    /// Parity: CACHE-15 — the set cost is guarded: threads setting and reading one shared image see only values
    /// that were set.
    func test_CACHE15_memoryCostSetFromManyThreads() {
        let image = CACHETestImages.opaque(width: 3, height: 3)
        let allowed: Set<UInt> = [9, 100, 200, 300, 400]
        let unexpected = CACHELocked<[UInt]>([])
        DispatchQueue.concurrentPerform(iterations: 400) { i in
            if i % 2 == 0 {
                image.sd_memoryCost = UInt(100 * (1 + i % 4))
            } else {
                let cost = image.sd_memoryCost
                if !allowed.contains(cost) { unexpected.mutate { $0.append(cost) } }
            }
        }
        XCTAssertEqual(unexpected.value, [])
        XCTAssertTrue([100, 200, 300, 400].contains(image.sd_memoryCost))
    }
}
