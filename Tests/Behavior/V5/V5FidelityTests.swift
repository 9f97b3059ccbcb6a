import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// Where the 5.x layer follows SDWebImage 5.21.5 rather than 4.4.8 (V5-05 … V5-09, V5-11): thumbnails, the
/// cancelled load's answer, the cache query's token, the response modifier, store cache types and the download
/// decryptor. Each test runs real loads against a loopback server and a cache in a temporary directory.
final class V5FidelityTests: XCTestCase {
    private var env: ManagerTestEnvironment!

    override func setUpWithError() throws {
        env = try ManagerTestEnvironment(namespace: "v5-fidelity")
    }

    override func tearDown() {
        env.tearDown()
        env = nil
    }

    private let thumbnail: SDWebImageContext = [.imageThumbnailPixelSize: CGSize(width: 64, height: 64)]

    /// Holds the cache's io queue until `release()`, so a query queued behind it has not searched yet.
    private func holdIOQueue() -> DispatchSemaphore {
        let gate = DispatchSemaphore(value: 0)
        let holding = DispatchSemaphore(value: 0)
        env.cache.ioQueue.async {
            holding.signal()
            gate.wait()
        }
        holding.wait()
        return gate
    }

    /// Stores `data` (decoded) on disk only under `key` and waits for the write.
    private func storeOnDiskOnly(_ data: Data, forKey key: String) throws {
        let image = try XCTUnwrap(try SDWebImageCodersManager.shared.decodeImage(from: data))
        let stored = Recorder<Bool>()
        env.cache.storeImage(image, imageData: data, forKey: key, cacheType: .disk) { stored.append(true) }
        XCTAssertTrue(waitUntil { stored.count == 1 })
        XCTAssertNil(env.cache.imageFromMemoryCache(forKey: key))
    }

    // MARK: V5-05 Thumbnails

    /// Parity: V5-05 — a thumbnail decoded from downloaded full-size data is delivered with nil data and stored
    /// under its own key, in memory and on disk (the thumbnail encoded, not the full-size bytes); under the
    /// full-size key go only the downloaded bytes, on disk.
    func test_V505_downloadedThumbnailComesWithoutDataAndIsStoredUnderItsOwnKey() throws {
        let url = try env.serveFixture("baseline.jpg", at: "/thumb.jpg")
        let full = try TestFixtures.data("baseline.jpg")
        let call = try XCTUnwrap(env.loadV5Finished(url, context: thumbnail))
        XCTAssertNil(call.error)
        XCTAssertEqual(call.image?.pixelWidth, 64)
        XCTAssertNil(call.data, "5.x delivers a thumbnail without the full-size data")
        let key = try XCTUnwrap(env.manager.cacheKey(for: url, context: thumbnail))
        XCTAssertEqual(env.diskImageExists(forKey: key), true)
        let stored = try XCTUnwrap(env.cache.diskImageData(forKey: key))
        XCTAssertNotEqual(stored, full, "the disk holds the thumbnail, not the full-size bytes")
        XCTAssertEqual(try SDWebImageCodersManager.shared.decodeImage(from: stored).pixelWidth, 64)
        XCTAssertEqual(env.cache.imageFromMemoryCache(forKey: key)?.pixelWidth, 64)
        // 5.21.5 passes the downloaded bytes on as the original data: on disk under the full-size key (the default
        // `originalStoreCacheType`), no image in memory there.
        XCTAssertEqual(env.cache.diskImageData(forKey: url.absoluteString), full, "the full-size bytes, as downloaded")
        XCTAssertNil(env.cache.imageFromMemoryCache(forKey: url.absoluteString))
    }

    /// Parity: V5-05 — a thumbnail read from the full-size file on disk goes into memory under the thumbnail's key,
    /// never the full-size key; it is stored on disk under its own key, delivered from `.disk` with nil data, and
    /// the full-size file is not rewritten. Nothing is downloaded.
    func test_V505_thumbnailFromTheFullSizeFileGoesUnderTheThumbnailKey() throws {
        let url = env.server.url("/only-on-disk.jpg")
        let full = try TestFixtures.data("baseline.jpg")
        try storeOnDiskOnly(full, forKey: url.absoluteString)
        let call = try XCTUnwrap(env.loadV5Finished(url, context: thumbnail))
        XCTAssertNil(call.error)
        XCTAssertEqual(call.cacheType, .disk)
        XCTAssertEqual(call.image?.pixelWidth, 64)
        XCTAssertNil(call.data)
        let key = try XCTUnwrap(env.manager.cacheKey(for: url, context: thumbnail))
        XCTAssertEqual(env.cache.imageFromMemoryCache(forKey: key)?.pixelWidth, 64)
        XCTAssertNil(
            env.cache.imageFromMemoryCache(forKey: url.absoluteString),
            "the small image must not stand for the full-size one in memory")
        XCTAssertEqual(env.diskImageExists(forKey: key), true)
        XCTAssertEqual(env.cache.diskImageData(forKey: url.absoluteString), full, "the full-size file is untouched")
        XCTAssertEqual(env.server.hits("/only-on-disk.jpg"), 0)
    }

    // MARK: V5-06 Cancel

    /// Parity: V5-06 — a 5.x load cancelled while downloading calls its completion once, with
    /// `SDWebImageErrorCancelled` (2002), no image, finished; the download stops. The 4.x load stays silent.
    func test_V506_cancelledDownloadAnswersOnceWithCancelled() throws {
        env.server.route("/hold.png", .stall)
        let url = env.server.url("/hold.png")
        let calls = Recorder<CompletionCall>()
        let operation = env.manager.loadImage(with: url, options: [], context: nil) {
            image, data, error, cacheType, finished, imageURL in
            calls.append(
                CompletionCall(
                    image: image, data: data, error: error, cacheType: cacheType,
                    finished: finished, url: imageURL))
        }
        XCTAssertTrue(waitUntil { self.env.server.hits("/hold.png") == 1 })
        operation.cancel()
        XCTAssertTrue(waitUntil { calls.count == 1 })
        operation.cancel()
        XCTAssertTrue(env.waitForDownloadsToEnd(), "the cancelled download ended")
        let call = try XCTUnwrap(calls.values.first)
        XCTAssertEqual(calls.count, 1)
        XCTAssertEqual(call.errorDomain, SDWebImageErrorDomain)
        XCTAssertEqual(call.errorCode, 2002)
        XCTAssertNil(call.image)
        XCTAssertTrue(call.finished)
        XCTAssertEqual(call.url, url)
        XCTAssertFalse(env.manager.failedURLs.contains(url), "a cancel does not block the URL")

        let calls4 = Recorder<Bool>()
        let operation4 = env.manager.loadImage(with: url, options: []) { _, _, _, _, _, _ in calls4.append(true) }
        XCTAssertTrue(waitUntil { self.env.server.hits("/hold.png") == 2 })
        operation4.cancel()
        XCTAssertTrue(env.waitForDownloadsToEnd(), "the cancelled download ended")
        XCTAssertEqual(calls4.count, 0, "4.4.8: a cancelled load calls nothing")
    }

    /// Parity: V5-06 — cancelled while the cache query waits for the io queue: one 2002 answer, nothing searched
    /// or downloaded; a cancel after the load finished calls nothing more.
    func test_V506_cancelDuringTheCacheQueryAndAfterTheEnd() throws {
        let url = try env.serveFixture("gradient.png", at: "/q.png")
        let calls = Recorder<Int>()
        let gate = holdIOQueue()
        let operation = env.manager.loadImage(with: url, options: [], context: nil) { _, _, error, _, _, _ in
            calls.append((error as NSError?)?.code ?? 0)
        }
        operation.cancel()
        XCTAssertTrue(waitUntil { calls.count == 1 })
        gate.signal()
        _ = env.cache.getSize()  // the io queue ran what was queued behind the gate
        drainMainQueue()
        XCTAssertEqual(calls.values, [2002])
        XCTAssertEqual(env.server.hits("/q.png"), 0)

        let finished = Recorder<Int>()
        let done = env.manager.loadImage(with: url, options: [], context: nil) { _, _, error, _, _, _ in
            finished.append((error as NSError?)?.code ?? 0)
        }
        XCTAssertTrue(waitUntil { finished.count == 1 })
        done.cancel()
        drainMainQueue()
        XCTAssertEqual(finished.values, [0], "a finished load is not answered again")
    }

    /// Parity: V5-06 (a deliberate difference) — cancelled while its transformer runs, after the download ended:
    /// 5.21.5 checks the cancel only before the cache query's answer and the loader's, so it would still store and
    /// deliver the transformed image; the port answers once with 2002 and delivers nothing else once `cancel()` has
    /// returned (chapter 08).
    func test_V506_cancelDuringTheTransformAnswersCancelledNotTheImage() throws {
        let url = try env.serveFixture("gradient.png", at: "/t.png")
        let transformer = HeldTransformer()
        let calls = Recorder<CompletionCall>()
        let operation = env.manager.loadImage(with: url, options: [], context: [.imageTransformer: transformer]) {
            image, data, error, cacheType, finished, imageURL in
            calls.append(
                CompletionCall(
                    image: image, data: data, error: error, cacheType: cacheType, finished: finished, url: imageURL))
        }
        // The load's earlier steps answer on the main queue: wait with the run loop turning.
        XCTAssertTrue(waitUntil { transformer.stage.value == .entered }, "the transform started")
        operation.cancel()
        transformer.gate.signal()
        XCTAssertTrue(waitUntil { calls.count == 1 && transformer.stage.value == .returned })
        XCTAssertTrue(env.waitForDownloadsToEnd())
        drainMainQueue()
        XCTAssertEqual(calls.count, 1, "one answer")
        let call = try XCTUnwrap(calls.values.first)
        XCTAssertEqual(call.errorCode, 2002)
        XCTAssertNil(call.image, "the transformed image is not delivered after the cancel")
    }

    /// A transformer that waits at `gate` until the test lets it go, and says when it has started and returned.
    private final class HeldTransformer: SDImageTransformer, Sendable {
        enum Stage: Sendable { case idle, entered, returned }
        let stage = Locked(Stage.idle)
        let gate = DispatchSemaphore(value: 0)
        var transformerKey: String { "held" }
        func transformedImage(with image: UIImage, forKey key: String) -> UIImage? {
            stage.update { $0 = .entered }
            gate.wait()
            defer { stage.update { $0 = .returned } }
            return image
        }
    }

    // MARK: V5-07 Cache query token

    /// Parity: V5-07 — cancelling a context-based cache query calls its done block at once with no image, and the
    /// search does not run (the file stays out of memory). The 4.x query's cancel silences it instead.
    func test_V507_cancellingAContextQueryAnswersAtOnceWithNoImage() throws {
        let key = "v5-07-key"
        try storeOnDiskOnly(try TestFixtures.data("gradient.png"), forKey: key)
        let answers = Recorder<CompletionCall>()
        let answers4 = Recorder<Bool>()
        let gate = holdIOQueue()
        let token = env.cache.queryImage(forKey: key, options: [], context: nil) { image, data, cacheType in
            answers.append(
                CompletionCall(
                    image: image, data: data, error: nil, cacheType: cacheType, finished: true,
                    url: nil))
        }
        let operation4 = env.cache.queryCacheOperation(forKey: key, options: []) { _, _, _ in answers4.append(true) }
        XCTAssertTrue(token is SDImageCacheToken)
        token?.cancel()
        operation4?.cancel()
        XCTAssertTrue(waitUntil { answers.count == 1 }, "answered while the io queue is still held")
        gate.signal()
        _ = env.cache.getSize()
        drainMainQueue()
        let answer = try XCTUnwrap(answers.values.first)
        XCTAssertEqual(answers.count, 1)
        XCTAssertNil(answer.image)
        XCTAssertNil(answer.data)
        XCTAssertEqual(answer.cacheType, .none)
        XCTAssertEqual(answers4.count, 0)
        XCTAssertNil(env.cache.imageFromMemoryCache(forKey: key), "the search did not run")
    }

    /// Parity: V5-07 — the combined operation of a 5.x load drops its cache query when the download starts; a 4.x
    /// load keeps it (4.4.8).
    func test_V507_combinedOperationDropsItsCacheQueryWhenTheDownloadStarts() throws {
        env.server.route("/slow.png", .stall)
        let url = env.server.url("/slow.png")
        let operation = env.manager.loadImage(with: url, options: [], context: nil) { _, _, _, _, _, _ in }
        XCTAssertTrue(waitUntil { self.env.server.hits("/slow.png") == 1 })
        XCTAssertNil(operation.cacheOperation)
        env.server.route("/slow4.png", .stall)
        let operation4 = env.manager.loadImage(with: env.server.url("/slow4.png"), options: []) { _, _, _, _, _, _ in }
        XCTAssertTrue(waitUntil { self.env.server.hits("/slow4.png") == 1 })
        XCTAssertNotNil(operation4.cacheOperation)
        operation.cancel()
        operation4.cancel()
    }

    // MARK: V5-08 Response modifier

    /// Parity: V5-08 — the download operation's `response` is the modified one: a header the modifier added is
    /// there, and the server never sent it.
    func test_V508_operationResponseIsTheModifiedResponse() throws {
        let url = try env.serveFixture("gradient.png", at: "/resp.png")
        let modifier = SDWebImageDownloaderResponseModifier { response in
            guard let http = response as? HTTPURLResponse, let url = http.url else { return response }
            var headers = http.allHeaderFields as? [String: String] ?? [:]
            headers["X-SDPort-Modified"] = "yes"
            return HTTPURLResponse(
                url: url, statusCode: http.statusCode, httpVersion: "HTTP/1.1", headerFields: headers)
        }
        let calls = Recorder<CompletionCall>()
        let operation = env.downloader.requestImage(
            with: url, options: [], context: [.downloadResponseModifier: modifier],
            progress: nil
        ) { image, data, error, finished in
            calls.append(
                CompletionCall(
                    image: image, data: data, error: error, cacheType: .none, finished: finished,
                    url: url))
        }
        XCTAssertTrue(waitUntil { calls.values.contains { $0.finished } })
        XCTAssertNil(calls.values.last?.error)
        let response = try XCTUnwrap((operation as? SDWebImageDownloaderOperation)?.response as? HTTPURLResponse)
        XCTAssertEqual(response.value(forHTTPHeaderField: "X-SDPort-Modified"), "yes")
        XCTAssertNil(env.server.requests("/resp.png").first?.header("X-SDPort-Modified"))
    }

    /// Parity: V5-08 — a response modifier that returns nil fails the load with `InvalidDownloadResponse` (2003)
    /// every time: whether the caller keeps the loader's operation or lets go of it at once.
    func test_V508_nilResponseModifierFailsWhoeverHoldsTheOperation() throws {
        let url = try env.serveFixture("gradient.png", at: "/nil.png")
        let dropping = SDWebImageDownloaderResponseModifier { _ in nil }
        let context: SDWebImageContext = [.downloadResponseModifier: dropping]
        for round in 0..<3 {
            let calls = Recorder<CompletionCall>()
            // The returned operation is dropped on purpose: nobody but the download itself holds it.
            _ = env.downloader.requestImage(with: url, options: [], context: context, progress: nil) {
                image, data, error, finished in
                calls.append(
                    CompletionCall(
                        image: image, data: data, error: error, cacheType: .none,
                        finished: finished, url: url))
            }
            XCTAssertTrue(waitUntil { calls.values.contains { $0.finished } }, "round \(round)")
            let call = try XCTUnwrap(calls.values.last)
            XCTAssertNil(call.image, "round \(round)")
            XCTAssertEqual(call.errorDomain, SDWebImageErrorDomain, "round \(round)")
            XCTAssertEqual(call.errorCode, 2003, "round \(round)")
        }
        let managed = try XCTUnwrap(env.loadV5Finished(url, options: [.retryFailed], context: context))
        XCTAssertEqual(managed.errorCode, 2003)
        XCTAssertNil(env.cache.imageFromMemoryCache(forKey: url.absoluteString))
    }

    // MARK: V5-09 Store cache types

    /// Parity: V5-09 — a disk hit goes into memory only when the context's `storeCacheType` allows memory: not
    /// for `.disk` or `.none`, yes for `.memory` and without the key. The 4.x query always fills memory.
    func test_V509_diskHitFillsMemoryOnlyWhenTheStoreCacheTypeAllowsIt() throws {
        let key = "v5-09-key"
        try storeOnDiskOnly(try TestFixtures.data("gradient.png"), forKey: key)
        func query(_ context: SDWebImageContext?) -> SDImageCacheType? {
            let answers = Recorder<SDImageCacheType>()
            env.cache.queryImage(forKey: key, options: [], context: context) { _, _, cacheType in
                answers.append(cacheType)
            }
            XCTAssertTrue(waitUntil { answers.count == 1 })
            return answers.values.first
        }
        for type in [SDWebImageV5CacheType.disk, .none] {
            XCTAssertEqual(query([.storeCacheType: type]), .disk)
            XCTAssertNil(env.cache.imageFromMemoryCache(forKey: key), "\(type)")
        }
        XCTAssertEqual(query([.storeCacheType: SDWebImageV5CacheType.memory]), .disk)
        XCTAssertNotNil(env.cache.imageFromMemoryCache(forKey: key))
        env.cache.clearMemory()
        XCTAssertEqual(query(nil), .disk)
        XCTAssertNotNil(env.cache.imageFromMemoryCache(forKey: key))

        // Through the manager: a `.disk` load answered from disk leaves memory empty.
        env.cache.clearMemory()
        let url = env.server.url("/v509.png")
        try storeOnDiskOnly(try TestFixtures.data("gradient.png"), forKey: url.absoluteString)
        let call = try XCTUnwrap(env.loadV5Finished(url, context: [.storeCacheType: SDWebImageV5CacheType.disk]))
        XCTAssertEqual(call.cacheType, .disk)
        XCTAssertNil(env.cache.imageFromMemoryCache(forKey: url.absoluteString))
        XCTAssertEqual(env.server.hits("/v509.png"), 0)
    }

    /// Parity: V5-09 — `originalStoreCacheType` applies to the original image, also when nothing transforms it:
    /// `storeCacheType` `.memory` alone still writes the downloaded data to disk (5.x stores the original there by
    /// default). An original found on disk is not written again: with `.all` it only goes into memory.
    func test_V509_originalStoreCacheTypeAppliesToAnUntransformedImage() throws {
        let url = try env.serveFixture("gradient.png", at: "/orig.png")
        let full = try TestFixtures.data("gradient.png")
        XCTAssertNil(env.loadV5Finished(url, context: [.storeCacheType: SDWebImageV5CacheType.memory])?.error)
        XCTAssertNotNil(env.cache.imageFromMemoryCache(forKey: url.absoluteString))
        XCTAssertEqual(env.diskImageExists(forKey: url.absoluteString), true)
        XCTAssertEqual(env.cache.diskImageData(forKey: url.absoluteString), full)

        let diskURL = env.server.url("/orig-on-disk.png")
        try storeOnDiskOnly(full, forKey: diskURL.absoluteString)
        let context: SDWebImageContext = [
            .imageTransformer: SDImageFlippingTransformer(horizontal: true, vertical: false),
            .storeCacheType: SDWebImageV5CacheType.none,
            .originalStoreCacheType: SDWebImageV5CacheType.all,
        ]
        let call = try XCTUnwrap(env.loadV5Finished(diskURL, context: context))
        XCTAssertEqual(call.cacheType, .disk)
        XCTAssertNotNil(
            env.cache.imageFromMemoryCache(forKey: diskURL.absoluteString),
            "the original goes into memory (`.all` without the disk it came from)")
        XCTAssertEqual(env.cache.diskImageData(forKey: diskURL.absoluteString), full)
        let transformedKey = try XCTUnwrap(env.manager.cacheKey(for: diskURL, context: context))
        XCTAssertNil(env.cache.imageFromMemoryCache(forKey: transformedKey))
        XCTAssertEqual(env.diskImageExists(forKey: transformedKey), false)
        XCTAssertEqual(env.server.hits("/orig-on-disk.png"), 0)
    }

    // MARK: V5-11 Decryptor

    /// Parity: V5-11 — with `downloadDecryptor` the downloaded bytes pass through the decryptor before decoding:
    /// the base64 decryptor turns a base64 body into the PNG, which is decoded, delivered and cached. Without it
    /// the same body is bad data (1001); a decryptor that gives nothing fails with 1001 too.
    func test_V511_base64DecryptorDecodesTheDecryptedBytes() throws {
        let png = try TestFixtures.data("gradient.png")
        env.server.route(
            "/b64.txt",
            .data(
                png.base64EncodedData(options: .lineLength76Characters),
                contentType: "text/plain"))
        let url = env.server.url("/b64.txt")
        let call = try XCTUnwrap(
            env.loadV5Finished(url, context: [.downloadDecryptor: SDWebImageDownloaderDecryptor.base64]))
        XCTAssertNil(call.error)
        XCTAssertEqual(call.image?.pixelWidth, 256)
        XCTAssertEqual(call.data, png, "the decrypted bytes are the load's data")
        XCTAssertEqual(env.cache.diskImageData(forKey: url.absoluteString), png)

        env.cache.clearMemory()
        let plain = try XCTUnwrap(env.loadV5Finished(url, options: [.fromLoaderOnly, .retryFailed]))
        XCTAssertEqual(plain.errorCode, 1001)
        let refusing = SDWebImageDownloaderDecryptor { _, _ in nil }
        let refused = try XCTUnwrap(
            env.loadV5Finished(
                url, options: [.fromLoaderOnly, .retryFailed],
                context: [.downloadDecryptor: refusing]))
        XCTAssertEqual(refused.errorCode, 1001)
        XCTAssertNil(refused.image)
    }
}
