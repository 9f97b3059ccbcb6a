import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// The 5.x context (`SDWebImageContext`, `SDWebImageDefine.h` / `SDWebImageManager.m`, 5.x) on the port's manager:
/// each key changes one real load against a loopback server and a cache in a temporary directory.
final class V5ContextTests: XCTestCase {
    private var env: ManagerTestEnvironment!

    override func setUpWithError() throws {
        env = try ManagerTestEnvironment(namespace: "v5-context")
    }

    override func tearDown() {
        env.tearDown()
        env = nil
    }

    /// Parity: V5-01 — the keys carry 5.x's strings, so a key spelled by hand is the same key.
    func test_V501_contextKeysCarryTheStringsOf5x() {
        XCTAssertEqual(SDWebImageContextOption.imageTransformer.rawValue, "imageTransformer")
        XCTAssertEqual(SDWebImageContextOption.setImageOperationKey.rawValue, "setImageOperationKey")
        XCTAssertEqual(SDWebImageContextOption.storeCacheType.rawValue, "storeCacheType")
        XCTAssertEqual(SDWebImageContextOption.downloadRequestModifier.rawValue, "downloadRequestModifier")
        let context: SDWebImageContext = ["imageScaleFactor": 2.0]
        XCTAssertNotNil(context[.imageScaleFactor])
    }

    /// Parity: V5-01 — `imageCache` replaces the manager's cache for one load: that cache is filled and answers
    /// the next load from memory, the manager's own cache stays empty.
    func test_V501_contextImageCacheIsQueriedAndFilledInsteadOfTheManagers() throws {
        let url = try env.serveFixture("gradient.png", at: "/c.png")
        let other = SDImageCache(namespace: "v5-other", diskCacheDirectory: env.directory.path)
        let context: SDWebImageContext = [.imageCache: other]
        let first = try XCTUnwrap(env.loadV5Finished(url, context: context))
        XCTAssertNil(first.error)
        XCTAssertEqual(first.cacheType, .none)
        XCTAssertNotNil(other.imageFromMemoryCache(forKey: url.absoluteString))
        XCTAssertNil(env.cache.imageFromMemoryCache(forKey: url.absoluteString))
        let second = try XCTUnwrap(env.loadV5Finished(url, context: context))
        XCTAssertEqual(second.cacheType, .memory)
        XCTAssertEqual(env.server.hits("/c.png"), 1)
    }

    /// Parity: V5-01 — `cacheKeyFilter` makes the key: two URLs differing only in a query share one cache entry.
    func test_V501_contextCacheKeyFilterChoosesTheKey() throws {
        try env.serveFixture("gradient.png", at: "/k.png")
        let filter = SDWebImageCacheKeyFilter { url in
            guard let url, var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
            parts.query = nil
            return parts.string
        }
        let context: SDWebImageContext = [.cacheKeyFilter: filter]
        let first = try XCTUnwrap(env.loadV5Finished(env.server.url("/k.png?token=1"), context: context))
        XCTAssertNil(first.error)
        XCTAssertNotNil(env.cache.imageFromMemoryCache(forKey: env.server.url("/k.png").absoluteString))
        let second = try XCTUnwrap(env.loadV5Finished(env.server.url("/k.png?token=2"), context: context))
        XCTAssertEqual(second.cacheType, .memory)
        XCTAssertEqual(env.server.hits("/k.png"), 1)
    }

    /// Parity: V5-01 — `imageCoder` decodes bytes the shared coders reject; without it the same bytes fail.
    func test_V501_contextCoderDecodesAFormatTheSharedCodersReject() throws {
        let bytes = V5MagicFormat.encode(width: 3, height: 2, rgba: (10, 20, 30, 255))
        env.server.route("/magic.v5", .data(bytes))
        let url = env.server.url("/magic.v5")
        let plain = try XCTUnwrap(env.loadV5Finished(url, options: [.retryFailed]))
        XCTAssertNil(plain.image)
        XCTAssertEqual(plain.errorDomain, SDWebImageErrorDomain)

        let decoded = try XCTUnwrap(
            env.loadV5Finished(
                url, options: [.retryFailed],
                context: [.imageCoder: V5MagicCoder()]))
        XCTAssertNil(decoded.error)
        let image = try XCTUnwrap(decoded.image)
        XCTAssertEqual(image.pixelWidth, 3)
        XCTAssertEqual(image.pixelHeight, 2)
        XCTAssertEqual(image.pixel(x: 2, y: 1).g, 20)
        XCTAssertEqual(decoded.data, bytes)
    }

    /// Parity: V5-01 — `downloadRequestModifier` changes the request that reaches the server; a modifier that
    /// returns nil fails with InvalidDownloadOperation (2000) and nothing is sent.
    func test_V501_requestModifierChangesTheRequestAndNilCancelsIt() throws {
        let url = try env.serveFixture("gradient.png", at: "/m.png")
        let modifier = SDWebImageDownloaderRequestModifier(headers: ["X-SDPort-V5": "context"])
        let call = try XCTUnwrap(env.loadV5Finished(url, context: [.downloadRequestModifier: modifier]))
        XCTAssertNil(call.error)
        XCTAssertEqual(call.image?.pixelWidth, 256)
        XCTAssertEqual(env.server.requests("/m.png").first?.header("X-SDPort-V5"), "context")

        let refusing = SDWebImageDownloaderRequestModifier { _ in nil }
        let refused = try XCTUnwrap(
            env.loadV5Finished(
                env.server.url("/m2.png"),
                context: [.downloadRequestModifier: refusing]))
        XCTAssertEqual(refused.errorDomain, SDWebImageErrorDomain)
        XCTAssertEqual(refused.errorCode, 2000)
        XCTAssertEqual(env.server.hits("/m2.png"), 0)
    }

    /// Parity: V5-01 — `downloadResponseModifier` returning nil fails the load with InvalidDownloadResponse (2003);
    /// one that turns the status into 500 fails it with InvalidDownloadStatusCode (2001). Nothing is cached.
    func test_V501_responseModifierCanFailALoad() throws {
        let url = try env.serveFixture("gradient.png", at: "/r.png")
        let dropping = SDWebImageDownloaderResponseModifier { _ in nil }
        let dropped = try XCTUnwrap(env.loadV5Finished(url, context: [.downloadResponseModifier: dropping]))
        XCTAssertEqual(dropped.errorCode, 2003)

        let failing = SDWebImageDownloaderResponseModifier { response in
            HTTPURLResponse(url: response.url!, statusCode: 500, httpVersion: "HTTP/1.1", headerFields: [:])
        }
        let failed = try XCTUnwrap(
            env.loadV5Finished(
                url, options: [.retryFailed],
                context: [.downloadResponseModifier: failing]))
        XCTAssertEqual(failed.errorCode, 2001)
        XCTAssertEqual((failed.error as NSError?)?.userInfo["SDWebImageErrorDownloadStatusCodeKey"] as? Int, 500)
        XCTAssertNil(env.cache.imageFromMemoryCache(forKey: url.absoluteString))
    }

    /// Parity: V5-01 — `imageScaleFactor` sets the image's scale whatever the key says.
    func test_V501_scaleFactorSetsTheScale() throws {
        let url = try env.serveFixture("gradient.png", at: "/s.png")
        let call = try XCTUnwrap(env.loadV5Finished(url, context: [.imageScaleFactor: 3.0]))
        let image = try XCTUnwrap(call.image)
        XCTAssertEqual(image.scale, 3)
        XCTAssertEqual(image.size.width, 256.0 / 3.0, accuracy: 0.001)
    }

    /// Parity: V5-01 — `imageThumbnailPixelSize` decodes to fit the size (aspect ratio kept) and caches under a
    /// `Thumbnail(...)` key, not the URL's own key.
    func test_V501_thumbnailPixelSizeShrinksAndKeysTheThumbnail() throws {
        let url = try env.serveFixture("baseline.jpg", at: "/t.jpg")
        let context: SDWebImageContext = [.imageThumbnailPixelSize: CGSize(width: 64, height: 64)]
        let call = try XCTUnwrap(env.loadV5Finished(url, context: context))
        let image = try XCTUnwrap(call.image)
        XCTAssertEqual(image.pixelWidth, 64)
        XCTAssertEqual(image.pixelHeight, 48)
        let key = try XCTUnwrap(env.manager.cacheKey(for: url, context: context))
        XCTAssertTrue(key.contains("Thumbnail("), key)
        XCTAssertTrue(key.hasSuffix(".jpg"), key)
        XCTAssertEqual(env.cache.imageFromMemoryCache(forKey: key)?.pixelWidth, 64)
        XCTAssertNil(env.cache.imageFromMemoryCache(forKey: url.absoluteString))
    }

    /// Parity: V5-01 — `storeCacheType`: `.memory` keeps the disk empty, `.disk` keeps memory empty, `.none` stores
    /// nothing — with `originalStoreCacheType` `.none` beside it, because 5.x stores the untransformed image as the
    /// original too, by default on disk (`test_V509_originalStoreCacheTypeAppliesToAnUntransformedImage`).
    func test_V501_storeCacheTypeChoosesWhereTheImageGoes() throws {
        let memoryURL = try env.serveFixture("gradient.png", at: "/mem.png")
        let diskURL = try env.serveFixture("gradient.png", at: "/disk.png")
        let noneURL = try env.serveFixture("gradient.png", at: "/none.png")
        let noOriginal = SDWebImageV5CacheType.none
        XCTAssertNil(
            env.loadV5Finished(
                memoryURL,
                context: [
                    .storeCacheType: SDWebImageV5CacheType.memory,
                    .originalStoreCacheType: noOriginal,
                ])?.error)
        XCTAssertNil(env.loadV5Finished(diskURL, context: [.storeCacheType: SDWebImageV5CacheType.disk])?.error)
        XCTAssertNil(
            env.loadV5Finished(
                noneURL,
                context: [
                    .storeCacheType: SDWebImageV5CacheType.none,
                    .originalStoreCacheType: noOriginal,
                ])?.error)

        XCTAssertNotNil(env.cache.imageFromMemoryCache(forKey: memoryURL.absoluteString))
        XCTAssertEqual(env.diskImageExists(forKey: memoryURL.absoluteString), false)
        XCTAssertNil(env.cache.imageFromMemoryCache(forKey: diskURL.absoluteString))
        XCTAssertEqual(env.diskImageExists(forKey: diskURL.absoluteString), true)
        XCTAssertNil(env.cache.imageFromMemoryCache(forKey: noneURL.absoluteString))
        XCTAssertEqual(env.diskImageExists(forKey: noneURL.absoluteString), false)
    }

    /// Parity: V5-01 — `cacheSerializer` chooses the bytes written to disk.
    func test_V501_cacheSerializerChoosesTheDiskBytes() throws {
        let url = try env.serveFixture("gradient.png", at: "/ser.png")
        let replacement = try TestFixtures.data("rgba.png")
        let serializer = SDWebImageCacheSerializer { _, _, _ in replacement }
        XCTAssertNil(env.loadV5Finished(url, context: [.cacheSerializer: serializer])?.error)
        XCTAssertEqual(env.diskImageExists(forKey: url.absoluteString), true)
        XCTAssertEqual(env.cache.diskImageData(forKey: url.absoluteString), replacement)
    }

    /// Parity: V5-01 — `customManager` runs the load on that manager (its cache is filled), and `callbackQueue`
    /// is where the completion runs.
    func test_V501_customManagerAndCallbackQueue() throws {
        let url = try env.serveFixture("gradient.png", at: "/cm.png")
        let otherCache = SDImageCache(namespace: "v5-custom", diskCacheDirectory: env.directory.path)
        let other = SDWebImageManager(cache: otherCache, downloader: env.downloader)
        let queue = DispatchQueue(label: "v5.callback")
        let marker = DispatchSpecificKey<Int>()
        queue.setSpecific(key: marker, value: 5)
        let onQueue = Recorder<Bool>()
        let done = Recorder<CompletionCall>()
        env.manager.loadImage(with: url, options: [], context: [.customManager: other, .callbackQueue: queue]) {
            image, data, error, cacheType, finished, imageURL in
            onQueue.append(DispatchQueue.getSpecific(key: marker) == 5)
            done.append(
                CompletionCall(
                    image: image, data: data, error: error, cacheType: cacheType,
                    finished: finished, url: imageURL))
        }
        XCTAssertTrue(waitUntil { done.count > 0 })
        XCTAssertNil(done.values.first?.error)
        XCTAssertEqual(onQueue.values, [true])
        XCTAssertNotNil(otherCache.imageFromMemoryCache(forKey: url.absoluteString))
        XCTAssertNil(env.cache.imageFromMemoryCache(forKey: url.absoluteString))
    }
}
