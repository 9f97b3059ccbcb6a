import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// `SDWebImageManager` (`SDWebImageManager.m`, 4.4.8): every branch of `loadImage`, against a real loopback
/// server, a real cache in a temporary directory and a real downloader.
final class MGRManagerTests: XCTestCase {
    private var env: ManagerTestEnvironment!

    override func setUpWithError() throws {
        env = try ManagerTestEnvironment()
    }

    override func tearDown() {
        env.tearDown()
        env = nil
    }

    /// A still test image, made from pixels (no codec involved).
    private func makeImage(width: Int = 4, height: Int = 3, value: UInt8 = 200) -> UIImage {
        UIImage(
            pixelWidth: width, pixelHeight: height, pixels: [UInt8](repeating: value, count: width * height * 4),
            hasAlpha: false, format: .png)
    }

    // MARK: MGR-01, MGR-02

    /// Parity: MGR-01 — the shared manager uses the shared cache and downloader; `init(cache:downloader:)` uses
    /// the ones given.
    func test_MGR01_sharedUsesSharedCacheAndDownloader() {
        XCTAssertTrue(SDWebImageManager.shared.imageCache === SDImageCache.shared)
        XCTAssertTrue(SDWebImageManager.shared.imageDownloader === SDWebImageDownloader.shared)
        XCTAssertTrue(SDWebImageManager.shared === SDWebImageManager.shared)
        XCTAssertTrue(env.manager.imageCache === env.cache)
        XCTAssertTrue(env.manager.imageDownloader === env.downloader)
        XCTAssertFalse(env.manager === SDWebImageManager.shared)
    }

    /// Parity: MGR-02 — nil URL → ""; the absolute string by default; the filter's answer when one is set.
    func test_MGR02_cacheKeyIsEmptyForNilFilteredWhenFilterSet() {
        let url = URL(string: "https://example.test/a/b.png?token=123")!
        XCTAssertEqual(env.manager.cacheKey(for: nil), "")
        XCTAssertEqual(env.manager.cacheKey(for: url), "https://example.test/a/b.png?token=123")
        env.manager.cacheKeyFilter = { url in
            guard let url, var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
            parts.query = nil
            return parts.string
        }
        XCTAssertEqual(env.manager.cacheKey(for: url), "https://example.test/a/b.png")
        XCTAssertEqual(env.manager.cacheKey(for: nil), "", "nil stays empty: the filter is not asked")
    }

    // MARK: MGR-03

    /// Parity: MGR-03 — a nil URL completes at once, finished, with NSURLErrorFileDoesNotExist; an operation is
    /// still returned and nothing is left running.
    func test_MGR03_nilURLCompletesWithFileDoesNotExist() {
        let (calls, operation) = env.load(nil)
        XCTAssertEqual(calls.count, 1)
        XCTAssertEqual(calls.first?.errorDomain, NSURLErrorDomain)
        XCTAssertEqual(calls.first?.errorCode, NSURLErrorFileDoesNotExist)
        XCTAssertEqual(calls.first?.finished, true)
        XCTAssertNil(calls.first?.image)
        XCTAssertFalse(operation.isCancelled)
        XCTAssertFalse(env.manager.isRunning)
    }

    /// Parity: MGR-03 — a blacklisted URL without `RetryFailed` completes with FileDoesNotExist and sends no
    /// request; with `RetryFailed` it is asked for again.
    func test_MGR03_blacklistedURLIsNotRequestedAgainWithoutRetryFailed() {
        // Text served as a PNG: "0 pixels", which is blacklisted (a 404 is not in 4.4.8, see MGR-06).
        env.server.route("/missing.png", .data(Data("not a picture".utf8), contentType: "image/png"))
        let url = env.server.url("/missing.png")

        let first = env.load(url).calls
        XCTAssertEqual(first.last?.errorDomain, SDWebImageErrorDomain)
        XCTAssertEqual(first.last?.errorCode, 0)
        XCTAssertEqual(env.server.hits("/missing.png"), 1)
        XCTAssertTrue(env.manager.failedURLs.contains(url))

        let second = env.load(url).calls
        XCTAssertEqual(second.last?.errorDomain, NSURLErrorDomain)
        XCTAssertEqual(second.last?.errorCode, NSURLErrorFileDoesNotExist)
        XCTAssertEqual(env.server.hits("/missing.png"), 1, "a blacklisted URL must not reach the server")

        let retried = env.load(url, options: .retryFailed).calls
        XCTAssertEqual(retried.last?.errorCode, 0)
        XCTAssertEqual(env.server.hits("/missing.png"), 2, "RetryFailed asks again")
    }

    // MARK: MGR-04

    /// Parity: MGR-04 — a load cancelled before the disk query answers calls nothing and leaves
    /// `runningOperations`; no request is made.
    func test_MGR04_cancelledBeforeCacheAnswersCallsNothing() {
        env.server.route("/never.png", .status(404))
        let url = env.server.url("/never.png")
        let calls = Recorder<CompletionCall>()
        let operation = env.manager.loadImage(with: url) { image, data, error, cacheType, finished, imageURL in
            calls.append(
                CompletionCall(
                    image: image, data: data, error: error, cacheType: cacheType,
                    finished: finished, url: imageURL))
        }
        XCTAssertTrue(env.manager.isRunning)
        XCTAssertNotNil(operation.cacheOperation, "a memory miss queues a disk query")
        let cacheOperation = operation.cacheOperation
        operation.cancel()
        XCTAssertTrue(operation.isCancelled)
        XCTAssertEqual(cacheOperation?.isCancelled, true, "cancel cancels the cache query")
        XCTAssertFalse(env.manager.isRunning)

        // Let the io queue and then the main queue run everything queued so far.
        XCTAssertNotNil(env.diskImageExists(forKey: "barrier"))
        drainMainQueue()
        XCTAssertEqual(calls.count, 0)
        XCTAssertEqual(env.server.totalHits, 0)
    }

    // MARK: MGR-05

    /// Parity: MGR-05 — manager options map one to one onto downloader options; RefreshCached → UseNSURLCache;
    /// refreshing a cached image drops ProgressiveDownload and adds IgnoreCachedResponse.
    func test_MGR05_optionsMapOneToOneOntoDownloaderOptions() {
        let pairs: [(SDWebImageOptions, SDWebImageDownloaderOptions)] = [
            (.lowPriority, .lowPriority), (.progressiveDownload, .progressiveDownload),
            (.refreshCached, .useNSURLCache),
            (.continueInBackground, .continueInBackground), (.handleCookies, .handleCookies),
            (.allowInvalidSSLCertificates, .allowInvalidSSLCertificates), (.highPriority, .highPriority),
            (.scaleDownLargeImages, .scaleDownLargeImages),
        ]
        for (option, expected) in pairs {
            XCTAssertEqual(
                SDWebImageManager.downloaderOptions(for: option, refreshingCachedImage: false), expected,
                "option \(option.rawValue)")
        }
        let unrelated: SDWebImageOptions = [
            .retryFailed, .cacheMemoryOnly, .delayPlaceholder, .transformAnimatedImage,
            .avoidAutoSetImage, .queryDataWhenInMemory, .queryDiskSync,
            .fromCacheOnly, .forceTransition,
        ]
        XCTAssertEqual(SDWebImageManager.downloaderOptions(for: unrelated, refreshingCachedImage: false), [])
        XCTAssertEqual(
            SDWebImageManager.downloaderOptions(
                for: [.refreshCached, .progressiveDownload, .highPriority],
                refreshingCachedImage: true),
            [.useNSURLCache, .ignoreCachedResponse, .highPriority])
        XCTAssertEqual(
            SDWebImageManager.cacheOptions(for: [.queryDataWhenInMemory, .queryDiskSync, .scaleDownLargeImages]),
            [.queryDataWhenInMemory, .queryDiskSync, .scaleDownLargeImages])
    }

    /// Parity: MGR-05 — end to end: each option given to `loadImage` reaches the download operation the manager
    /// starts (its `options`, queue priority and request), not only the mapping helper.
    func test_MGR05_eachOptionReachesTheDownloadOperationThroughLoadImage() throws {
        env.server.route("/hold.png", .stall)
        let pairs: [(SDWebImageOptions, SDWebImageDownloaderOptions)] = [
            ([], []), (.lowPriority, .lowPriority), (.progressiveDownload, .progressiveDownload),
            (.refreshCached, .useNSURLCache), (.continueInBackground, .continueInBackground),
            (.handleCookies, .handleCookies), (.allowInvalidSSLCertificates, .allowInvalidSSLCertificates),
            (.highPriority, .highPriority), (.scaleDownLargeImages, .scaleDownLargeImages),
            ([.retryFailed, .cacheMemoryOnly, .queryDiskSync], []),
        ]
        for (index, (option, expected)) in pairs.enumerated() {
            let url = env.server.url("/hold.png?option=\(index)")
            let load = env.manager.loadImage(with: url, options: option) { _, _, _, _, _, _ in }
            XCTAssertTrue(
                waitUntil { self.env.downloader.runningOperation(for: url) != nil }, "option \(option.rawValue)")
            let operation = try XCTUnwrap(env.downloader.runningOperation(for: url) as? SDWebImageDownloaderOperation)
            XCTAssertEqual(operation.options, expected, "option \(option.rawValue)")
            XCTAssertEqual(
                operation.request?.cachePolicy,
                option.contains(.refreshCached) ? .useProtocolCachePolicy : .reloadIgnoringLocalCacheData)
            XCTAssertEqual(operation.request?.httpShouldHandleCookies, option.contains(.handleCookies))
            XCTAssertEqual(
                operation.queuePriority,
                option.contains(.highPriority) ? .high : option.contains(.lowPriority) ? .low : .normal)
            load.cancel()
        }

        // A cached image being refreshed: no progressive download, and IgnoreCachedResponse.
        let cachedURL = env.server.url("/hold.png?cached")
        env.cache.storeImage(
            toMemory: UIImage(pixelWidth: 1, pixelHeight: 1, pixels: [1, 2, 3, 255], hasAlpha: true),
            forKey: cachedURL.absoluteString)
        let refresh = env.manager.loadImage(with: cachedURL, options: [.refreshCached, .progressiveDownload]) {
            _, _, _, _, _, _ in
        }
        XCTAssertTrue(waitUntil { self.env.downloader.runningOperation(for: cachedURL) != nil })
        let refreshing = try XCTUnwrap(
            env.downloader.runningOperation(for: cachedURL) as? SDWebImageDownloaderOperation)
        XCTAssertEqual(refreshing.options, [.useNSURLCache, .ignoreCachedResponse])
        refresh.cancel()
    }

    /// Parity: MGR-05, MGR-07 — RefreshCached with a cached image: the cached image is delivered first; the
    /// refresh goes through the protocol cache, the server answers 304, and nothing more is called.
    func test_MGR05_refreshCachedDeliversCachedImageThenNothingOn304() throws {
        let data = try TestFixtures.data("rgba.png")
        env.server.route("/avatar.png", .data(data, contentType: "image/png").etag("\"v1\"").cacheControl("no-cache"))
        let url = env.server.url("/avatar.png")

        // First load with RefreshCached: nothing cached yet, so a plain download through the protocol cache.
        let first = env.load(url, options: .refreshCached).calls
        XCTAssertEqual(first.count, 1)
        XCTAssertNotNil(first.first?.image)
        XCTAssertEqual(first.first?.cacheType, SDImageCacheType.none)
        XCTAssertTrue(waitUntil { !self.env.manager.isRunning })

        // Second: the memory image at once, then a revalidation that the server answers with 304.
        let calls = Recorder<CompletionCall>()
        env.manager.loadImage(with: url, options: .refreshCached) { image, data, error, cacheType, finished, imageURL in
            calls.append(
                CompletionCall(
                    image: image, data: data, error: error, cacheType: cacheType,
                    finished: finished, url: imageURL))
        }
        XCTAssertTrue(waitUntil { self.env.server.hits("/avatar.png") == 2 && !self.env.manager.isRunning })
        drainMainQueue()
        XCTAssertEqual(calls.count, 1, "a 304 answered from the protocol cache calls nothing more")
        XCTAssertEqual(calls.values.first?.cacheType, .memory)
        XCTAssertEqual(env.server.requests("/avatar.png").last?.header("If-None-Match"), "\"v1\"")
        XCTAssertTrue(env.manager.failedURLs.isEmpty)
    }

    /// Parity: MGR-05, MGR-07 — RefreshCached with a cached image, and the server has a new one: the cached
    /// image first, then the new image (cache type none), which replaces it in the cache.
    func test_MGR05_refreshCachedDeliversNewImageWhenServerChanged() throws {
        env.server.route(
            "/avatar.png",
            .data(try TestFixtures.data("rgba.png"), contentType: "image/png")
                .etag("\"v1\"").cacheControl("no-cache"))
        let url = env.server.url("/avatar.png")
        XCTAssertNotNil(env.load(url, options: .refreshCached).calls.first?.image)
        XCTAssertTrue(waitUntil { !self.env.manager.isRunning })

        env.server.route(
            "/avatar.png",
            .data(try TestFixtures.data("palette.png"), contentType: "image/png")
                .etag("\"v2\"").cacheControl("no-cache"))
        let calls = Recorder<CompletionCall>()
        env.manager.loadImage(with: url, options: .refreshCached) { image, data, error, cacheType, finished, imageURL in
            calls.append(
                CompletionCall(
                    image: image, data: data, error: error, cacheType: cacheType,
                    finished: finished, url: imageURL))
        }
        XCTAssertTrue(waitUntil { calls.count == 2 })
        let values = calls.values
        XCTAssertEqual(values.first?.cacheType, .memory)
        XCTAssertEqual(values.first?.image?.pixelWidth, 32)
        XCTAssertEqual(values.last?.cacheType, SDImageCacheType.none)
        XCTAssertEqual(values.last?.image?.pixelWidth, 16, "the new image (palette.png is 16×16)")
        XCTAssertEqual(env.cache.imageFromMemoryCache(forKey: url.absoluteString)?.pixelWidth, 16)
    }

    // MARK: MGR-06

    /// Parity: MGR-06 — the eight network errors are not blacklisted; everything else is.
    func test_MGR06_blacklistRuleExcludesTheEightNetworkErrors() {
        let excluded = [
            NSURLErrorNotConnectedToInternet, NSURLErrorCancelled, NSURLErrorTimedOut,
            NSURLErrorInternationalRoamingOff, NSURLErrorDataNotAllowed, NSURLErrorCannotFindHost,
            NSURLErrorCannotConnectToHost, NSURLErrorNetworkConnectionLost,
        ]
        for code in excluded {
            XCTAssertFalse(
                SDWebImageManager.shouldBlockFailedURL(with: NSError(domain: NSURLErrorDomain, code: code)),
                "code \(code)")
        }
        for code in [404, 500, NSURLErrorBadServerResponse, NSURLErrorServerCertificateUntrusted] {
            XCTAssertTrue(
                SDWebImageManager.shouldBlockFailedURL(with: NSError(domain: NSURLErrorDomain, code: code)),
                "code \(code)")
        }
        XCTAssertTrue(SDWebImageManager.shouldBlockFailedURL(with: NSError(domain: SDWebImageErrorDomain, code: 3)))
    }

    /// Parity: MGR-06 — a timeout (stalled server, short timeout) reaches the completion and is not blacklisted.
    func test_MGR06_timeoutIsNotBlacklisted() {
        env.downloader.downloadTimeout = 0.5
        env.server.route("/stall.png", .stall)
        let url = env.server.url("/stall.png")
        let calls = env.load(url).calls
        XCTAssertEqual(calls.last?.errorDomain, NSURLErrorDomain)
        XCTAssertEqual(calls.last?.errorCode, NSURLErrorTimedOut)
        XCTAssertFalse(env.manager.failedURLs.contains(url))
    }

    /// Parity: MGR-06 — a refused connection (nothing listening) is not blacklisted.
    func test_MGR06_cannotConnectIsNotBlacklisted() throws {
        let closed = SDPortTestServer()
        try closed.start()
        let url = closed.url("/gone.png")
        closed.stop()
        let calls = env.load(url).calls
        XCTAssertEqual(calls.last?.errorCode, NSURLErrorCannotConnectToHost)
        XCTAssertFalse(env.manager.failedURLs.contains(url))
    }

    /// Parity: MGR-06 — a connection closed mid-body is not blacklisted.
    func test_MGR06_connectionLostIsNotBlacklisted() throws {
        env.server.route(
            "/cut.png",
            .data(try TestFixtures.data("gradient.png"), contentType: "image/png")
                .closeAfter(bytes: 1000))
        let url = env.server.url("/cut.png")
        let calls = env.load(url).calls
        XCTAssertEqual(calls.last?.errorCode, NSURLErrorNetworkConnectionLost)
        XCTAssertFalse(env.manager.failedURLs.contains(url))
    }

    /// Parity: MGR-06 — a 404 is NOT blacklisted in 4.4.8: the operation cancels the response, so the error is
    /// NSURLErrorCancelled, one of the eight that never blacklist, and a second load asks the server again.
    /// (4.0–4.2 delivered the status as the error code and blacklisted it; 5.x reports InvalidDownloadStatusCode
    /// and does not blacklist it either.)
    func test_MGR06_http404IsNotBlacklisted() {
        env.server.route("/404.png", .status(404))
        let url = env.server.url("/404.png")
        let calls = env.load(url).calls
        XCTAssertEqual(calls.last?.errorDomain, NSURLErrorDomain)
        XCTAssertEqual(calls.last?.errorCode, NSURLErrorCancelled)
        XCTAssertEqual(
            (calls.last?.error as NSError?)?.userInfo["statusCode"] as? Int, 404, "the status stays reachable")
        XCTAssertEqual(calls.last?.finished, true)
        XCTAssertFalse(env.manager.failedURLs.contains(url))
        XCTAssertEqual(env.load(url).calls.last?.errorCode, NSURLErrorCancelled)
        XCTAssertEqual(env.server.hits("/404.png"), 2, "the second load reached the server again")
    }

    /// Parity: MGR-06 — data that does not decode ("Downloaded image has 0 pixels") is blacklisted.
    func test_MGR06_undecodableDataIsBlacklisted() throws {
        let url = try env.serveFixture("corrupt.jpg")
        let calls = env.load(url).calls
        XCTAssertEqual(calls.last?.errorDomain, SDWebImageErrorDomain)
        XCTAssertEqual(calls.last?.errorCode, 0)
        XCTAssertEqual(calls.last?.error?.localizedDescription, "Downloaded image has 0 pixels")
        XCTAssertNil(calls.last?.image)
        XCTAssertTrue(env.manager.failedURLs.contains(url))
    }

    /// Parity: MGR-06 — 4.4.8's order for a failed download, in one main-queue block: the user's completion runs
    /// first (the URL not yet blacklisted, the load still running), then the blacklist update, then the load
    /// leaves `runningOperations`; the next main-queue block sees both done.
    func test_MGR06_completionThenBlacklistThenLeavingRunningOperations() throws {
        let url = try env.serveFixture("corrupt.jpg")
        let manager = env.manager
        let seenInCompletion = Recorder<(blacklisted: Bool, running: Bool, onMainQueue: Bool)>()
        let seenJustAfter = Recorder<(blacklisted: Bool, running: Bool)>()
        let mainKey = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: mainKey, value: true)
        manager.loadImage(with: url) { _, _, error, _, finished, _ in
            guard finished, error != nil else { return }
            seenInCompletion.append(
                (
                    manager.failedURLs.contains(url), manager.isRunning,
                    DispatchQueue.getSpecific(key: mainKey) == true
                ))
            DispatchQueue.main.async { seenJustAfter.append((manager.failedURLs.contains(url), manager.isRunning)) }
        }
        XCTAssertTrue(waitUntil { seenJustAfter.count == 1 })
        let inCompletion = try XCTUnwrap(seenInCompletion.values.first)
        XCTAssertTrue(inCompletion.onMainQueue, "the download completion hopped to the main queue, as 4.4.8's")
        XCTAssertFalse(inCompletion.blacklisted, "the completion runs before the blacklist update")
        XCTAssertTrue(inCompletion.running, "and before the load leaves runningOperations")
        let after = try XCTUnwrap(seenJustAfter.values.first)
        XCTAssertTrue(after.blacklisted)
        XCTAssertFalse(after.running)
    }

    /// Parity: MGR-06 — the delegate's `shouldBlockFailedURL` replaces the rule.
    func test_MGR06_delegateDecidesWhetherToBlock() throws {
        let delegate = ManagerTestDelegate()
        delegate.blockFailedURLs = false
        env.manager.delegate = delegate
        let url = try env.serveFixture("corrupt.jpg")
        XCTAssertEqual(env.load(url).calls.last?.errorCode, 0)
        XCTAssertTrue(env.manager.failedURLs.isEmpty, "the rule would block it; the delegate said no")
        XCTAssertEqual(delegate.blockQuestions.values.map(\.code), [0])
    }

    /// Parity: MGR-13 — a delegate's method is used only when implemented: a delegate that answers only
    /// `shouldDownload` (no transform) leaves a download on 4.4.8's path (`SDWebImageManager.m:244,263-283`): the
    /// completion runs as a main-queue block while the load is still in `runningOperations`, and the partial images
    /// of a progressive download arrive in order, before the final image.
    func test_MGR13_delegateWithoutTransformKeepsTheDirectPath() throws {
        let delegate = ManagerTestDelegate()
        env.manager.delegate = delegate
        let manager = env.manager
        env.server.route(
            "/progressive.jpg",
            .file(TestFixtures.url("progressive.jpg"), contentType: "image/jpeg")
                .trickle(chunkSize: 2048, interval: 0.005))
        let url = env.server.url("/progressive.jpg")
        let mainKey = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: mainKey, value: true)
        let seen = Recorder<(finished: Bool, onMainQueue: Bool, running: Bool)>()
        let done = expectation(description: "final image")
        manager.loadImage(with: url, options: .progressiveDownload) { image, _, _, _, finished, _ in
            XCTAssertNotNil(image)
            seen.append((finished, DispatchQueue.getSpecific(key: mainKey) == true, manager.isRunning))
            if finished { done.fulfill() }
        }
        wait(for: [done], timeout: 15)
        XCTAssertEqual(delegate.downloadQuestions.count, 1, "the delegate was asked")
        let calls = seen.values
        XCTAssertGreaterThan(calls.count, 1, "partial images, then the final one")
        XCTAssertEqual(calls.map(\.finished), Array(repeating: false, count: calls.count - 1) + [true], "in order")
        XCTAssertTrue(calls.allSatisfy(\.onMainQueue), "no hop to a global queue")
        XCTAssertEqual(calls.last?.running, true, "the final completion runs before the load leaves runningOperations")
    }

    // MARK: MGR-07

    /// Parity: MGR-07 — success with RetryFailed takes the URL off the failed list.
    func test_MGR07_successWithRetryFailedRemovesURLFromFailedList() throws {
        env.server.route("/later.png", .data(Data("not yet a picture".utf8), contentType: "image/png"))
        let url = env.server.url("/later.png")
        _ = env.load(url)
        XCTAssertTrue(env.manager.failedURLs.contains(url))
        env.server.route("/later.png", .data(try TestFixtures.data("rgba.png"), contentType: "image/png"))
        let calls = env.load(url, options: .retryFailed).calls
        XCTAssertNotNil(calls.last?.image)
        XCTAssertFalse(env.manager.failedURLs.contains(url))
    }

    /// Parity: MGR-07 — a download is stored in memory and on disk; with CacheMemoryOnly, in memory only.
    func test_MGR07_cacheMemoryOnlyWritesNoFile() throws {
        let onDisk = try env.serveFixture("rgba.png", at: "/disk.png")
        let memoryOnly = try env.serveFixture("rgba.png", at: "/memory.png")
        XCTAssertNotNil(env.load(onDisk).calls.last?.image)
        XCTAssertNotNil(env.load(memoryOnly, options: .cacheMemoryOnly).calls.last?.image)
        XCTAssertEqual(env.diskImageExists(forKey: onDisk.absoluteString), true)
        XCTAssertEqual(env.diskImageExists(forKey: memoryOnly.absoluteString), false)
        XCTAssertNotNil(env.cache.imageFromMemoryCache(forKey: memoryOnly.absoluteString))
    }

    /// Parity: MGR-07, MGR-13 — the transform delegate runs off the main queue; its new image is delivered with
    /// cache type none and stored, with data encoded again from the new image (not the downloaded bytes).
    func test_MGR07_transformRunsOffMainAndNewImageIsStoredReencoded() throws {
        let delegate = ManagerTransformingTestDelegate()
        delegate.transform = { image in
            guard let image else { return nil }
            return UIImage(
                pixelWidth: 2, pixelHeight: 2, pixels: [UInt8](repeating: 77, count: 16), hasAlpha: false,
                format: image.sd_imageFormat)
        }
        env.manager.delegate = delegate
        let downloaded = try TestFixtures.data("baseline.jpg")
        let url = try env.serveFixture("baseline.jpg")
        let calls = env.load(url).calls
        XCTAssertEqual(calls.last?.image?.pixelWidth, 2)
        XCTAssertEqual(calls.last?.cacheType, SDImageCacheType.none)
        XCTAssertEqual(calls.last?.data, downloaded, "the completion gets the downloaded data")
        XCTAssertEqual(delegate.transformThreads.values, [false], "transformed once, off the main thread")
        XCTAssertEqual(env.cache.imageFromMemoryCache(forKey: url.absoluteString)?.pixelWidth, 2)
        XCTAssertEqual(env.diskImageExists(forKey: url.absoluteString), true)
        let stored = try XCTUnwrap(env.cache.diskImageData(forKey: url.absoluteString))
        XCTAssertNotEqual(stored, downloaded, "a new image must be encoded again, not stored with the old bytes")
        env.cache.clearMemory()
        XCTAssertEqual(env.cache.imageFromDiskCache(forKey: url.absoluteString)?.pixelWidth, 2)
    }

    /// Parity: MGR-07 — a transform that returns the same image keeps the downloaded bytes on disk.
    func test_MGR07_unchangedTransformKeepsDownloadedData() throws {
        let delegate = ManagerTransformingTestDelegate()
        delegate.transform = { $0 }
        env.manager.delegate = delegate
        let downloaded = try TestFixtures.data("baseline.jpg")
        let url = try env.serveFixture("baseline.jpg")
        XCTAssertNotNil(env.load(url).calls.last?.image)
        XCTAssertEqual(env.diskImageExists(forKey: url.absoluteString), true)
        XCTAssertEqual(env.cache.diskImageData(forKey: url.absoluteString), downloaded)
    }

    /// Parity: MGR-07 — animated images are transformed only with TransformAnimatedImage.
    func test_MGR07_animatedImagesTransformedOnlyWithOption() throws {
        let delegate = ManagerTransformingTestDelegate()
        delegate.transform = { $0 }
        env.manager.delegate = delegate
        try AnimatedGIFCoding.enabled {
            let url = try env.serveFixture("animated.gif")
            let plain = env.load(url).calls.last
            XCTAssertEqual(plain?.image?.isAnimated, true)
            XCTAssertEqual(delegate.transformThreads.count, 0, "animated: no transform without the option")

            let other = try env.serveFixture("animated.gif", at: "/animated-2.gif")
            XCTAssertEqual(env.load(other, options: .transformAnimatedImage).calls.last?.image?.isAnimated, true)
            XCTAssertEqual(delegate.transformThreads.count, 1)
        }
    }

    /// Parity: MGR-07, COD-10 — with 4.4.8's default coders a GIF is a still image (under UIKit), so the delegate's
    /// transform applies to it without `TransformAnimatedImage`, and it is cached as one frame.
    func test_MGR07_stillGIFOfTheDefaultCodersIsTransformed() throws {
        let delegate = ManagerTransformingTestDelegate()
        delegate.transform = { $0 }
        env.manager.delegate = delegate
        let url = try env.serveFixture("animated.gif")
        let image = try XCTUnwrap(env.load(url).calls.last?.image)
        XCTAssertFalse(image.isAnimated)
        XCTAssertEqual(image.sd_imageFormat, .gif)
        XCTAssertEqual(delegate.transformThreads.count, 1, "a still GIF is transformed like any still image")
        XCTAssertEqual(
            env.cache.imageFromMemoryCache(forKey: url.absoluteString)?.sd_memoryCost, 20 * 20,
            "one frame's cost")
    }

    /// Parity: MGR-07 — the cache serializer chooses the bytes written to disk.
    func test_MGR07_cacheSerializerChoosesDiskBytes() throws {
        let marker = try TestFixtures.data("rgba.png")
        env.manager.cacheSerializer = { _, _, _ in marker }
        let url = try env.serveFixture("baseline.jpg")
        XCTAssertNotNil(env.load(url).calls.last?.image)
        XCTAssertTrue(waitUntil { self.env.cache.diskImageData(forKey: url.absoluteString) == marker })
    }

    // MARK: MGR-08

    /// Parity: MGR-08 — cancelling during the download cancels the downloader token (the download stops, no
    /// completion is called); a finished load leaves `runningOperations`.
    func test_MGR08_cancelDuringDownloadCancelsTokenAndFinishedLeavesRunning() throws {
        env.server.route("/stall.png", .stall)
        let url = env.server.url("/stall.png")
        let calls = Recorder<CompletionCall>()
        let operation = env.manager.loadImage(with: url) { image, data, error, cacheType, finished, imageURL in
            calls.append(
                CompletionCall(
                    image: image, data: data, error: error, cacheType: cacheType,
                    finished: finished, url: imageURL))
        }
        XCTAssertTrue(waitUntil { self.env.server.hits("/stall.png") == 1 })
        XCTAssertEqual(env.manager.runningOperations.count, 1)
        XCTAssertNotNil(operation.downloadToken)
        XCTAssertEqual(env.downloader.runningURLCount, 1)
        operation.cancel()
        XCTAssertTrue(waitUntil { self.env.downloader.runningURLCount == 0 }, "the download was cancelled")
        XCTAssertFalse(env.manager.isRunning)
        drainMainQueue()
        XCTAssertEqual(calls.count, 0)

        let done = try env.serveFixture("rgba.png")
        _ = env.load(done)
        XCTAssertTrue(waitUntil { !self.env.manager.isRunning }, "a finished load leaves runningOperations")
    }

    // MARK: MGR-09

    /// Parity: MGR-09 — an image in the cache is delivered with its cache type and no request is made.
    func test_MGR09_cachedImageIsDeliveredWithItsCacheType() {
        let url = env.server.url("/cached.png")
        let image = makeImage()
        env.cache.storeImage(toMemory: image, forKey: url.absoluteString)
        let calls = env.load(url).calls
        XCTAssertEqual(calls.count, 1)
        XCTAssertTrue(calls.first?.image === image)
        XCTAssertEqual(calls.first?.cacheType, .memory)
        XCTAssertNil(calls.first?.error)
        XCTAssertEqual(calls.first?.url, url)
        XCTAssertEqual(env.server.totalHits, 0)
        XCTAssertFalse(env.manager.isRunning)
    }

    /// Parity: MGR-09, MGR-13 — missed and the delegate refuses the download: nil image, nil error, finished.
    func test_MGR09_missedAndDownloadRefusedGivesNoImageNoError() {
        let delegate = ManagerTestDelegate()
        delegate.allowDownloads = false
        env.manager.delegate = delegate
        env.server.route("/refused.png", .status(404))
        let url = env.server.url("/refused.png")
        let calls = env.load(url).calls
        XCTAssertEqual(calls.count, 1)
        XCTAssertNil(calls.first?.image)
        XCTAssertNil(calls.first?.error)
        XCTAssertEqual(calls.first?.finished, true)
        XCTAssertEqual(calls.first?.cacheType, SDImageCacheType.none)
        XCTAssertEqual(delegate.downloadQuestions.values, [url])
        XCTAssertEqual(env.server.totalHits, 0)
    }

    /// Parity: MGR-09 — FromCacheOnly never downloads: a miss finishes with no image and no error.
    func test_MGR09_fromCacheOnlyMissNeverDownloads() {
        env.server.route("/only.png", .status(404))
        let url = env.server.url("/only.png")
        let calls = env.load(url, options: .fromCacheOnly).calls
        XCTAssertEqual(calls.count, 1)
        XCTAssertNil(calls.first?.image)
        XCTAssertNil(calls.first?.error)
        XCTAssertEqual(env.server.totalHits, 0)
    }

    // MARK: MGR-10

    /// Parity: MGR-10 — completions run on the main queue by default, for a download, an error and a cache hit.
    func test_MGR10_completionsRunOnMainQueue() throws {
        let url = try env.serveFixture("rgba.png")
        env.server.route("/404.png", .status(404))
        XCTAssertEqual(env.load(url).calls.map(\.onMainThread), [true])
        XCTAssertEqual(env.load(env.server.url("/404.png")).calls.map(\.onMainThread), [true])
        XCTAssertEqual(env.load(url).calls.map(\.onMainThread), [true])
    }

    /// Parity: MGR-10 (port addition) — with `completionQueue` set to a serial queue (and the cache's and the
    /// downloader's to match),
    /// completions arrive there while the main thread is blocked, so the main queue plays no part.
    func test_MGR10_completionQueueDeliversWithoutMainQueue() throws {
        let queue = DispatchQueue(label: "sdport.test.mgr.completions")
        env.manager.completionQueue = queue
        env.cache.completionQueue = queue
        env.downloader.completionQueue = queue
        let url = try env.serveFixture("rgba.png")
        let calls = Recorder<(CompletionCall, Bool)>()
        queue.setSpecific(key: QueueMarker.key, value: "completions")

        for expected in [SDImageCacheType.none, .memory, .disk] {
            if expected == .disk {
                XCTAssertEqual(env.diskImageExistsBlocking(forKey: url.absoluteString), true)
                env.cache.clearMemory()
            }
            let finished = DispatchSemaphore(value: 0)
            env.manager.loadImage(with: url) { image, data, error, cacheType, isFinished, imageURL in
                let onQueue = DispatchQueue.getSpecific(key: QueueMarker.key) == "completions"
                calls.append(
                    (
                        CompletionCall(
                            image: image, data: data, error: error, cacheType: cacheType,
                            finished: isFinished, url: imageURL), onQueue
                    ))
                if isFinished { finished.signal() }
            }
            // Blocks the main thread: the main queue cannot run anything until the completion signals.
            XCTAssertEqual(finished.wait(timeout: .now() + 15), .success, "cache type \(expected)")
            XCTAssertEqual(calls.values.last?.0.cacheType, expected)
            XCTAssertNotNil(calls.values.last?.0.image)
        }
        XCTAssertEqual(calls.values.map(\.0.onMainThread), [false, false, false])
        XCTAssertEqual(calls.values.map(\.1), [true, true, true])
    }

    /// Parity: MGR-10 — cancelled while the delegate transforms the downloaded image (after the download, before
    /// the completion): the completion is never called.
    func test_MGR10_cancelDuringTransformCallsNothing() throws {
        let delegate = ManagerTransformingTestDelegate()
        let transformStarted = DispatchSemaphore(value: 0)
        let mayFinish = DispatchSemaphore(value: 0)
        delegate.transform = { image in
            transformStarted.signal()
            _ = mayFinish.wait(timeout: .now() + 10)
            return image
        }
        env.manager.delegate = delegate
        let url = try env.serveFixture("rgba.png")
        let calls = Recorder<Bool>()
        let operation = env.manager.loadImage(with: url) { _, _, _, _, _, _ in calls.append(true) }
        XCTAssertTrue(waitUntil { transformStarted.wait(timeout: .now()) == .success })
        operation.cancel()
        mayFinish.signal()
        XCTAssertTrue(
            waitUntil { self.env.cache.imageFromMemoryCache(forKey: url.absoluteString) != nil },
            "the transform still finishes and stores (as the original)")
        drainMainQueue()
        XCTAssertEqual(calls.count, 0)
        XCTAssertFalse(env.manager.isRunning)
    }

    /// Parity: MGR-10, MGR-11 — cancelling after the load finished is harmless; with RefreshCached, cancelling
    /// after the cached image was delivered stops the refresh's second completion.
    func test_MGR10_cancelAfterCompletionIsHarmlessAndStopsRefresh() throws {
        let url = try env.serveFixture("rgba.png")
        let (calls, operation) = env.load(url)
        XCTAssertEqual(calls.count, 1)
        operation.cancel()
        XCTAssertTrue(operation.isCancelled)
        drainMainQueue()

        env.server.route(
            "/rgba.png",
            SDPortTestRoute.data(try TestFixtures.data("palette.png"), contentType: "image/png")
                .delay(0.2))
        let refreshCalls = Recorder<SDImageCacheType>()
        let refreshing = env.manager.loadImage(with: url, options: .refreshCached) { _, _, _, cacheType, _, _ in
            refreshCalls.append(cacheType)
        }
        XCTAssertTrue(waitUntil { refreshCalls.count == 1 })
        XCTAssertTrue(waitUntil { self.env.server.hits("/rgba.png") == 2 })
        refreshing.cancel()
        XCTAssertTrue(waitUntil { self.env.downloader.runningURLCount == 0 && !self.env.manager.isRunning })
        drainMainQueue()
        XCTAssertEqual(refreshCalls.values, [.memory], "the refreshed image never arrives after the cancel")
    }

    // MARK: MGR-11

    /// Parity: MGR-11 — `cancel` marks the operation cancelled, cancels its cache operation and calls the cancel
    /// block once; a cancel block set after the cancel runs at once.
    func test_MGR11_cancelCallsCancelBlockOnceAndLateBlockRunsAtOnce() {
        let operation = env.load(nil).operation
        let cacheOperation = BlockOperation {}
        operation.cacheOperation = cacheOperation
        let cancelCalls = Recorder<String>()
        operation.cancelBlock = { cancelCalls.append("first") }
        XCTAssertFalse(operation.isCancelled)
        operation.cancel()
        operation.cancel()
        XCTAssertTrue(operation.isCancelled)
        XCTAssertTrue(cacheOperation.isCancelled)
        XCTAssertNil(operation.cacheOperation)
        XCTAssertEqual(cancelCalls.values, ["first"], "the cancel block runs once")
        operation.cancelBlock = { cancelCalls.append("late") }
        XCTAssertEqual(cancelCalls.values, ["first", "late"], "a cancel block set after cancel runs at once")
        let lateCacheOperation = BlockOperation {}
        operation.cacheOperation = lateCacheOperation
        XCTAssertTrue(lateCacheOperation.isCancelled, "a cache operation handed over after cancel is cancelled")
    }

    // MARK: MGR-12

    /// Parity: MGR-12 — `isRunning` and `cancelAll`: every running load is cancelled, none completes.
    func test_MGR12_cancelAllCancelsEveryRunningLoad() {
        env.server.route("/stall.png", .stall)
        let calls = Recorder<Bool>()
        let operations = (0..<3).map { index in
            env.manager.loadImage(with: env.server.url("/stall.png?n=\(index)")) { _, _, _, _, _, _ in
                calls.append(true)
            }
        }
        XCTAssertTrue(env.manager.isRunning)
        XCTAssertTrue(waitUntil { self.env.server.hits("/stall.png") == 3 })
        env.manager.cancelAll()
        XCTAssertFalse(env.manager.isRunning)
        XCTAssertTrue(operations.allSatisfy(\.isCancelled))
        XCTAssertTrue(waitUntil { self.env.downloader.runningURLCount == 0 })
        drainMainQueue()
        XCTAssertEqual(calls.count, 0)
    }

    /// Parity: MGR-12 — `saveImageToCache`, `cachedImageExists` (memory, then disk) and `diskImageExists`.
    func test_MGR12_saveImageAndExistenceChecks() {
        let url = URL(string: "https://example.test/saved.png")!
        let answers = Recorder<(String, Bool)>()
        env.manager.cachedImageExists(for: url) { answers.append(("cached before", $0)) }
        env.manager.diskImageExists(for: url) { answers.append(("disk before", $0)) }
        XCTAssertTrue(waitUntil { answers.count == 2 })

        env.manager.saveImageToCache(makeImage(), for: url)
        env.manager.saveImageToCache(nil, for: url)
        env.manager.saveImageToCache(makeImage(), for: nil)
        XCTAssertNotNil(env.cache.imageFromMemoryCache(forKey: url.absoluteString))
        env.manager.cachedImageExists(for: url) { answers.append(("cached in memory", $0)) }
        env.manager.diskImageExists(for: url) { answers.append(("disk after", $0)) }
        XCTAssertTrue(waitUntil { answers.count == 4 })
        env.cache.clearMemory()
        env.manager.cachedImageExists(for: url) { answers.append(("cached on disk", $0)) }
        XCTAssertTrue(waitUntil { answers.count == 5 })

        let byName = Dictionary(answers.values, uniquingKeysWith: { first, _ in first })
        XCTAssertEqual(byName["cached before"], false)
        XCTAssertEqual(byName["disk before"], false)
        XCTAssertEqual(byName["cached in memory"], true)
        XCTAssertEqual(byName["disk after"], true)
        XCTAssertEqual(byName["cached on disk"], true, "after clearMemory the disk answers")
    }

    // MARK: MGR-13

    /// Parity: MGR-13 — the delegate is asked whether to download each missed URL, and allowing it downloads.
    func test_MGR13_delegateIsAskedBeforeDownloading() throws {
        let delegate = ManagerTestDelegate()
        env.manager.delegate = delegate
        let url = try env.serveFixture("rgba.png")
        XCTAssertNotNil(env.load(url).calls.last?.image)
        XCTAssertEqual(delegate.downloadQuestions.values, [url])
        _ = env.load(url)
        XCTAssertEqual(delegate.downloadQuestions.count, 1, "a memory hit does not ask")
    }

    // MARK: async/await face

    /// Parity: MGR-09, MGR-10 — the awaited load returns the image, its data and its cache type.
    func test_MGR09_asyncLoadReturnsImageDataAndCacheType() async throws {
        let data = try TestFixtures.data("rgba.png")
        let url = try env.serveFixture("rgba.png")
        let first = try await env.manager.loadImage(with: url)
        XCTAssertEqual(first.cacheType, SDImageCacheType.none)
        XCTAssertEqual(first.data, data)
        XCTAssertEqual(first.image.pixelWidth, 32)
        let second = try await env.manager.loadImage(with: url)
        XCTAssertEqual(second.cacheType, .memory)
        XCTAssertTrue(second.image === first.image)
    }

    /// Parity: MGR-03 — the awaited load throws the load's error; no image without error throws `noImage`.
    func test_MGR03_asyncLoadThrowsErrors() async throws {
        do {
            _ = try await env.manager.loadImage(with: nil)
            XCTFail("a nil URL must throw")
        } catch {
            XCTAssertEqual((error as NSError).code, NSURLErrorFileDoesNotExist)
        }
        do {
            _ = try await env.manager.loadImage(with: env.server.url("/nothing.png"), options: .fromCacheOnly)
            XCTFail("a cache-only miss must throw")
        } catch let error as SDWebImageLoadError {
            XCTAssertEqual(error, .noImage(env.server.url("/nothing.png")))
        }
        XCTAssertEqual(env.server.totalHits, 0, "FromCacheOnly: no request reached the server")
    }

    /// Parity: MGR-10 — cancelling the Swift task cancels the combined operation (the download stops) and the
    /// awaiting call throws CancellationError, exactly once.
    func test_MGR10_asyncTaskCancellationCancelsLoadAndThrows() async throws {
        env.server.route("/stall.png", .stall)
        let url = env.server.url("/stall.png")
        let manager = env.manager
        let task = Task { try await manager.loadImage(with: url) }
        let server = env.server
        let reached = await Task.detached { waitUntil { server.hits("/stall.png") == 1 } }.value
        XCTAssertTrue(reached)
        XCTAssertTrue(manager.isRunning)
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("a cancelled load must throw")
        } catch {
            XCTAssertTrue(error is CancellationError, "got \(error)")
        }
        XCTAssertFalse(manager.isRunning)
        let downloader = env.downloader
        let stopped = await Task.detached { waitUntil { downloader.runningURLCount == 0 } }.value
        XCTAssertTrue(stopped, "the download was cancelled with the task")
    }

    /// Parity: MGR-10 — a task cancelled before the load starts throws CancellationError and sends nothing.
    func test_MGR10_asyncAlreadyCancelledTaskThrowsAtOnce() async throws {
        env.server.route("/stall.png", .stall)
        let url = env.server.url("/stall.png")
        let manager = env.manager
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await manager.loadImage(with: url)
        }
        do {
            _ = try await task.value
            XCTFail("must throw")
        } catch {
            XCTAssertTrue(error is CancellationError, "got \(error)")
        }
        XCTAssertFalse(manager.isRunning)
    }
}

/// A marker for "am I on this queue" checks in tests.
enum QueueMarker {
    static let key = DispatchSpecificKey<String>()
}

extension ManagerTestEnvironment {
    /// `diskImageExists` for callers that block the main thread: waits on a semaphore, with the cache answering
    /// on its own completion queue (which must not be the main queue).
    func diskImageExistsBlocking(forKey key: String?) -> Bool? {
        let answer = Recorder<Bool>()
        let done = DispatchSemaphore(value: 0)
        cache.diskImageExists(withKey: key) {
            answer.append($0)
            done.signal()
        }
        guard done.wait(timeout: .now() + 10) == .success else { return nil }
        return answer.values.first
    }
}
