import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// The 5.x option bits (`SDWebImageDefine.h`, 5.x) and what the new ones do in the 5.x flow.
final class V5OptionsTests: XCTestCase {
    private var env: ManagerTestEnvironment!

    override func setUpWithError() throws {
        env = try ManagerTestEnvironment(namespace: "v5-options")
    }

    override func tearDown() {
        env.tearDown()
        env = nil
    }

    /// Parity: V5-04 — 5.x's bit values, kept apart from 4.x's: the same name can sit on another bit.
    func test_V504_bitValuesAre5xAndDifferFrom4x() {
        XCTAssertEqual(SDWebImageV5Options.progressiveLoad.rawValue, 1 << 2)
        XCTAssertEqual(SDWebImageV5Options.scaleDownLargeImages.rawValue, 1 << 11)
        XCTAssertEqual(SDWebImageV5Options.queryMemoryData.rawValue, 1 << 12)
        XCTAssertEqual(SDWebImageV5Options.queryMemoryDataSync.rawValue, 1 << 13)
        XCTAssertEqual(SDWebImageV5Options.queryDiskDataSync.rawValue, 1 << 14)
        XCTAssertEqual(SDWebImageV5Options.fromCacheOnly.rawValue, 1 << 15)
        XCTAssertEqual(SDWebImageV5Options.fromLoaderOnly.rawValue, 1 << 16)
        XCTAssertEqual(SDWebImageV5Options.forceTransition.rawValue, 1 << 17)
        XCTAssertEqual(SDWebImageV5Options.avoidDecodeImage.rawValue, 1 << 18)
        XCTAssertEqual(SDWebImageV5Options.decodeFirstFrameOnly.rawValue, 1 << 19)
        XCTAssertEqual(SDWebImageV5Options.preloadAllFrames.rawValue, 1 << 20)
        XCTAssertNotEqual(
            SDWebImageOptions.scaleDownLargeImages.rawValue, SDWebImageV5Options.scaleDownLargeImages.rawValue)

        let converted = SDWebImageV5Options([.cacheMemoryOnly, .progressiveDownload, .queryDiskSync, .forceTransition])
        XCTAssertEqual(
            converted, [.progressiveLoad, .queryDiskDataSync, .forceTransition],
            "CacheMemoryOnly has no 5.x bit (storeCacheType .memory replaces it)")
        XCTAssertEqual(converted.rawValue, (1 << 2) | (1 << 14) | (1 << 17))
        XCTAssertEqual(
            SDWebImageV5Options([.refreshCached]).downloaderOptions(refreshingCachedImage: false), [.useNSURLCache])
    }

    /// Parity: V5-04 — `fromCacheOnly`: a miss completes finished with no image and no error, without a request;
    /// a hit is delivered.
    func test_V504_fromCacheOnlyNeverLoads() throws {
        let url = try env.serveFixture("gradient.png", at: "/fc.png")
        let miss = try XCTUnwrap(env.loadV5Finished(url, options: [.fromCacheOnly]))
        XCTAssertNil(miss.image)
        XCTAssertNil(miss.error)
        XCTAssertEqual(env.server.hits("/fc.png"), 0)

        try env.cache.writeImageDataToDisk(try TestFixtures.data("gradient.png"), forKey: url.absoluteString)
        let hit = try XCTUnwrap(env.loadV5Finished(url, options: [.fromCacheOnly]))
        XCTAssertEqual(hit.cacheType, .disk)
        XCTAssertEqual(hit.image?.pixelWidth, 256)
        XCTAssertEqual(env.server.hits("/fc.png"), 0)
    }

    /// Parity: V5-04 — `fromLoaderOnly` skips the cache: an image in memory is loaded again.
    func test_V504_fromLoaderOnlySkipsTheCache() throws {
        let url = try env.serveFixture("gradient.png", at: "/fl.png")
        env.cache.storeImage(
            toMemory: UIImage(pixelWidth: 1, pixelHeight: 1, pixels: [1, 2, 3, 255], hasAlpha: false),
            forKey: url.absoluteString)
        XCTAssertEqual(env.loadV5Finished(url)?.cacheType, .memory)
        let loaded = try XCTUnwrap(env.loadV5Finished(url, options: [.fromLoaderOnly]))
        XCTAssertEqual(loaded.cacheType, .none)
        XCTAssertEqual(loaded.image?.pixelWidth, 256)
        XCTAssertEqual(env.server.hits("/fl.png"), 1)
    }

    /// Parity: V5-04 — `queryDiskDataSync`: a disk hit is decoded and delivered before `loadImage` returns (when the
    /// caller is on the callback queue); without it the answer comes later.
    func test_V504_queryDiskDataSyncAnswersBeforeReturning() throws {
        let url = try env.serveFixture("gradient.png", at: "/sync.png")
        try env.cache.writeImageDataToDisk(try TestFixtures.data("gradient.png"), forKey: url.absoluteString)
        let queue = DispatchQueue(label: "v5.sync")
        let context: SDWebImageContext = [.callbackQueue: queue]

        let syncCalls = Recorder<SDImageCacheType>()
        let syncCountAtReturn: Int = queue.sync {
            env.manager.loadImage(with: url, options: [.queryDiskDataSync], context: context) { _, _, _, type, _, _ in
                syncCalls.append(type)
            }
            return syncCalls.count
        }
        XCTAssertEqual(syncCountAtReturn, 1)
        XCTAssertEqual(syncCalls.values, [.disk])

        env.cache.clearMemory()
        let asyncCalls = Recorder<SDImageCacheType>()
        let asyncCountAtReturn: Int = queue.sync {
            env.manager.loadImage(with: url, options: [], context: context) { _, _, _, type, _, _ in
                asyncCalls.append(type)
            }
            return asyncCalls.count
        }
        XCTAssertEqual(asyncCountAtReturn, 0)
        XCTAssertTrue(waitUntil { asyncCalls.count > 0 })
        XCTAssertEqual(asyncCalls.values, [.disk])
        XCTAssertEqual(env.server.hits("/sync.png"), 0)
    }

    /// Parity: V5-04 — the cache's 5.x `queryDiskDataSync` searches on the io queue (5.x `dispatch_sync`s its
    /// block there, unlike 4.4.8's `.queryDiskSync`), so it waits behind disk work queued before it; the port then
    /// calls `done` on the caller's thread, outside the io queue, where a synchronous cache call cannot deadlock
    /// (5.x calls it inside).
    func test_V504_queryDiskDataSyncSearchesOnTheIOQueueAndCallsDoneOutsideIt() throws {
        let cache = env.cache
        let key = "http://example.com/v5-sync.png"
        let bytes = try TestFixtures.data("rgba.png")
        let order = Recorder<String>()
        cache.ioQueue.async {
            cache.storeImageData(toDisk: bytes, forKey: key)
            order.append("written")
        }
        let doneInfo = Recorder<(onIOQueue: Bool, exists: Bool, type: SDImageCacheType)>()
        cache.queryImage(forKey: key, options: [.queryDiskDataSync], context: nil) { _, data, type in
            order.append(data == bytes ? "found" : "not found")
            doneInfo.append((cache.isOnIOQueue, cache.diskImageDataExists(withKey: key), type))
        }
        order.append("returned")
        XCTAssertEqual(order.values, ["written", "found", "returned"], "the search waited for the earlier write")
        XCTAssertEqual(doneInfo.values.first?.onIOQueue, false)
        XCTAssertEqual(doneInfo.values.first?.exists, true, "a synchronous cache call inside done answers")
        XCTAssertEqual(doneInfo.values.first?.type, .disk)
    }

    /// Parity: V5-04 — `queryMemoryData`: a memory hit also reads the disk bytes (cache type stays memory);
    /// without it a memory hit carries no data.
    func test_V504_queryMemoryDataReadsTheDiskBytes() throws {
        let url = try env.serveFixture("gradient.png", at: "/qm.png")
        XCTAssertNil(env.loadV5Finished(url)?.error)
        XCTAssertEqual(env.diskImageExists(forKey: url.absoluteString), true)
        let plain = try XCTUnwrap(env.loadV5Finished(url))
        XCTAssertEqual(plain.cacheType, .memory)
        XCTAssertNil(plain.data)
        let withData = try XCTUnwrap(env.loadV5Finished(url, options: [.queryMemoryData]))
        XCTAssertEqual(withData.cacheType, .memory)
        XCTAssertEqual(withData.data, try TestFixtures.data("gradient.png"))
    }

    /// Parity: V5-04 — `avoidDecodeImage` leaves images as decoded, not force-decoded, whether they come from the
    /// network, a file or the disk cache.
    func test_V504_avoidDecodeImageSkipsForceDecoding() throws {
        let url = try env.serveFixture("gradient.png", at: "/ad.png")
        XCTAssertEqual(env.loadV5Finished(url, options: [.fromLoaderOnly])?.image?.sd_isDecoded, true)
        XCTAssertEqual(
            env.loadV5Finished(url, options: [.fromLoaderOnly, .avoidDecodeImage])?.image?.sd_isDecoded, false)

        let file = TestFixtures.url("baseline.jpg")
        let fileContext: SDWebImageContext = [
            .imageLoader: SDImageFileLoader(), .storeCacheType: SDWebImageV5CacheType.disk,
        ]
        XCTAssertEqual(
            env.loadV5Finished(file, options: [.avoidDecodeImage], context: fileContext)?.image?.sd_isDecoded, false)
        XCTAssertEqual(env.diskImageExists(forKey: file.absoluteString), true)
        let fromDisk = try XCTUnwrap(env.loadV5Finished(file, options: [.avoidDecodeImage], context: fileContext))
        XCTAssertEqual(fromDisk.cacheType, .disk)
        XCTAssertEqual(fromDisk.image?.sd_isDecoded, false)
    }

    /// Parity: V5-04 — `decodeFirstFrameOnly` gives a still image of the first frame, from the network and from an
    /// animated image already in memory.
    func test_V504_decodeFirstFrameOnlyGivesAStillImage() throws {
        // 5.x decodes GIFs animated by default (its coders include SDImageGIFCoder); 4.4.8's default set, which
        // the port's shared coders follow, does not, so the animated coder is added as a 4.4.8 app would.
        try AnimatedGIFCoding.enabled {
            let url = try env.serveFixture("animated.gif", at: "/ff.gif")
            let animated = try XCTUnwrap(env.loadV5Finished(url)?.image)
            XCTAssertEqual(animated.distinctFrames.count, 5)

            let fromMemory = try XCTUnwrap(env.loadV5Finished(url, options: [.decodeFirstFrameOnly]))
            XCTAssertEqual(fromMemory.cacheType, .memory)
            XCTAssertNil(fromMemory.image?.images)
            XCTAssertEqual(fromMemory.image?.pixels, animated.images?.first?.pixels)

            let loaded = try XCTUnwrap(env.loadV5Finished(url, options: [.decodeFirstFrameOnly, .fromLoaderOnly]))
            XCTAssertNil(loaded.image?.images)
            XCTAssertEqual(loaded.image?.pixelWidth, 20)
            XCTAssertEqual(loaded.image?.sd_imageFormat, .gif)
        }
    }
}
