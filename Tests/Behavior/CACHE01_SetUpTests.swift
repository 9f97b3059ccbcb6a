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
}
