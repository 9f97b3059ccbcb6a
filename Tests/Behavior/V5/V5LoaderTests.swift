import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// Loaders (`SDImageLoader.h`, `SDImageLoadersManager.m`, 5.x), chosen per request through the context.
final class V5LoaderTests: XCTestCase {
    private var env: ManagerTestEnvironment!

    override func setUpWithError() throws {
        env = try ManagerTestEnvironment(namespace: "v5-loader")
    }

    override func tearDown() {
        env.tearDown()
        env = nil
    }

    private func makeImage(value: UInt8) -> UIImage {
        UIImage(pixelWidth: 2, pixelHeight: 2, pixels: [UInt8](repeating: value, count: 16), hasAlpha: false)
    }

    /// Parity: V5-03 — the loaders manager gives each URL to the last added loader that can request it.
    func test_V503_loadersManagerPicksTheLastAddedAbleLoader() {
        let first = V5RecordingLoader(image: makeImage(value: 1))
        let second = V5RecordingLoader(image: makeImage(value: 2))
        let manager = SDImageLoadersManager(loaders: [env.downloader, SDImageFileLoader.shared])
        XCTAssertTrue(manager.loader(for: URL(fileURLWithPath: "/tmp/x.png")) === SDImageFileLoader.shared)
        XCTAssertTrue(manager.loader(for: URL(string: "http://h.test/x.png")) === env.downloader)
        XCTAssertFalse(SDImageFileLoader.shared.canRequestImage(for: URL(string: "http://h.test/x.png")))
        manager.addLoader(first)
        manager.addLoader(second)
        XCTAssertTrue(manager.loader(for: URL(string: "v5test:a")) === second)
        manager.removeLoader(second)
        XCTAssertTrue(manager.loader(for: URL(string: "v5test:a")) === first)
        XCTAssertTrue(
            manager.loader(for: URL(string: "http://h.test/x.png")) === env.downloader,
            "the downloader takes any URL the later loaders refuse")
    }

    /// Parity: V5-03 — with the file loader in the context, a `file://` URL is read from disk, decoded by the
    /// coders, delivered as a load (cache type none) and cached under the URL's key; the server is never asked.
    func test_V503_fileLoaderReadsAndDecodesAFile() throws {
        let url = TestFixtures.url("baseline.jpg")
        let progress = Recorder<Int>()
        let calls = Recorder<CompletionCall>()
        env.manager.loadImage(
            with: url, options: [], context: [.imageLoader: SDImageFileLoader()],
            progress: { received, _, _ in progress.append(received) }
        ) {
            image, data, error, cacheType, finished, imageURL in
            calls.append(
                CompletionCall(
                    image: image, data: data, error: error, cacheType: cacheType,
                    finished: finished, url: imageURL))
        }
        XCTAssertTrue(waitUntil { calls.count > 0 })
        let call = try XCTUnwrap(calls.values.first)
        XCTAssertNil(call.error)
        XCTAssertEqual(call.cacheType, .none)
        XCTAssertEqual(call.image?.pixelWidth, 256)
        XCTAssertEqual(call.image?.sd_imageFormat, .jpeg)
        XCTAssertEqual(call.data, try TestFixtures.data("baseline.jpg"))
        XCTAssertEqual(progress.values.last, try TestFixtures.data("baseline.jpg").count)
        XCTAssertNotNil(env.cache.imageFromMemoryCache(forKey: url.absoluteString))
        XCTAssertEqual(env.server.totalHits, 0)
    }

    /// Parity: V5-03 — file loader failures: a missing file gives the file system's error and is not put on the
    /// failed list; a file that does not decode gives BadImageData (1001), is put on it, and the next load is
    /// refused with BlackListed (1003) unless `retryFailed` is given.
    func test_V503_fileLoaderErrorsAndFailedURLs() throws {
        let loader = SDImageFileLoader()
        let missing = env.directory.url.appendingPathComponent("absent.png")
        let absent = try XCTUnwrap(env.loadV5Finished(missing, context: [.imageLoader: loader]))
        XCTAssertNil(absent.image)
        XCTAssertEqual(absent.errorDomain, NSCocoaErrorDomain)
        XCTAssertEqual(absent.errorCode, NSFileReadNoSuchFileError)
        XCTAssertFalse(env.manager.failedURLs.contains(missing))

        let corrupt = TestFixtures.url("corrupt.jpg")
        let bad = try XCTUnwrap(env.loadV5Finished(corrupt, context: [.imageLoader: loader]))
        XCTAssertEqual(bad.errorDomain, SDWebImageErrorDomain)
        XCTAssertEqual(bad.errorCode, 1001)
        XCTAssertTrue(env.manager.failedURLs.contains(corrupt))
        let refused = try XCTUnwrap(env.loadV5Finished(corrupt, context: [.imageLoader: loader]))
        XCTAssertEqual(refused.errorCode, 1003)
        let retried = try XCTUnwrap(
            env.loadV5Finished(corrupt, options: [.retryFailed], context: [.imageLoader: loader]))
        XCTAssertEqual(retried.errorCode, 1001, "retryFailed loads the file again")
        env.manager.removeAllFailedURLs()
        XCTAssertTrue(env.manager.failedURLs.isEmpty)
    }

    /// Parity: V5-03 — the loader is chosen per request: a loaders manager in the context sends `v5test:` URLs to
    /// a custom loader, `file://` URLs to the file loader and HTTP URLs to the downloader, in one manager.
    func test_V503_loaderIsChosenPerRequest() throws {
        let custom = V5RecordingLoader(image: makeImage(value: 9))
        let loaders = SDImageLoadersManager(loaders: [env.downloader, SDImageFileLoader(), custom])
        let context: SDWebImageContext = [.imageLoader: loaders]

        let customURL = try XCTUnwrap(URL(string: "v5test:one"))
        XCTAssertEqual(env.loadV5Finished(customURL, context: context)?.image?.pixel(x: 0, y: 0).r, 9)
        XCTAssertEqual(custom.requestedURLs, [customURL])

        let file = try XCTUnwrap(env.loadV5Finished(TestFixtures.url("rgba.png"), context: context))
        XCTAssertEqual(file.image?.pixelWidth, 32)

        let httpURL = try env.serveFixture("gradient.png", at: "/h.png")
        XCTAssertEqual(env.loadV5Finished(httpURL, context: context)?.image?.pixelWidth, 256)
        XCTAssertEqual(env.server.hits("/h.png"), 1)

        // Without a context loader the manager's downloader is used.
        let plainURL = try env.serveFixture("gradient.png", at: "/p.png")
        XCTAssertEqual(env.loadV5Finished(plainURL)?.image?.pixelWidth, 256)
        XCTAssertEqual(env.server.hits("/p.png"), 1)
        XCTAssertEqual(custom.requestedURLs, [customURL])
    }

    /// Parity: V5-03, MGR-12 — 4.x and 5.x loads share one failed-URL list and one running set: a URL a 5.x load
    /// failed on is refused to a 4.x load (and the reverse), and `isRunning` / `cancelAll` see 5.x loads; the
    /// cancelled 5.x load answers once, with `SDWebImageErrorCancelled` (V5-06).
    func test_V503_fourAndFiveShareTheFailedListAndTheRunningSet() throws {
        env.server.route("/bad5.png", .data(Data("not an image".utf8), contentType: "image/png"))
        let failedIn5 = env.server.url("/bad5.png")
        XCTAssertEqual(env.loadV5Finished(failedIn5)?.errorCode, 1001)
        XCTAssertEqual(env.load(failedIn5).calls.last?.errorCode, NSURLErrorFileDoesNotExist, "the 4.x load is refused")
        env.server.route("/bad4.png", .data(Data("not an image either".utf8), contentType: "image/png"))
        let failedIn4 = env.server.url("/bad4.png")
        XCTAssertEqual(env.load(failedIn4).calls.last?.errorCode, 0)
        XCTAssertEqual(env.loadV5Finished(failedIn4)?.errorCode, 1003, "the 5.x load is refused")
        XCTAssertEqual(env.server.hits("/bad5.png") + env.server.hits("/bad4.png"), 2)
        XCTAssertEqual(env.manager.failedURLs, [failedIn5, failedIn4])

        env.server.route("/hold.png", .stall)
        let called = Recorder<Int>()
        env.manager.loadImage(with: env.server.url("/hold.png"), options: [.fromLoaderOnly], context: nil) {
            _, _, error, _, _, _ in
            called.append((error as NSError?)?.code ?? 0)
        }
        XCTAssertTrue(env.manager.isRunning, "a 5.x load is in runningOperations")
        XCTAssertEqual(env.manager.runningOperations.count, 1)
        XCTAssertTrue(waitUntil { self.env.server.hits("/hold.png") == 1 })
        env.manager.cancelAll()
        XCTAssertFalse(env.manager.isRunning)
        XCTAssertTrue(env.waitForDownloadsToEnd(), "the cancelled download ended")
        XCTAssertEqual(called.values, [2002], "a cancelled 5.x load answers once, cancelled")
    }

    /// Parity: V5-03 — the downloader as a 5.x loader reports a 404 as 5.x does, `InvalidDownloadStatusCode`
    /// (2001, the status in userInfo), and by 5.x's rule does not block it: the next load reaches the server.
    /// Bytes that do not decode are `BadImageData` (1001) and are blocked (1003 next time, no request).
    func test_V503_downloaderLoaderReportsA404AsInvalidStatusAndDoesNotBlockIt() throws {
        env.server.route("/missing.png", .status(404))
        let url = env.server.url("/missing.png")
        XCTAssertTrue(env.downloader.canRequestImage(for: url))
        XCTAssertFalse(
            env.downloader.shouldBlockFailedURL(with: url, error: SDWebImageV5Error.invalidDownloadStatusCode(404, url))
        )
        XCTAssertTrue(env.downloader.shouldBlockFailedURL(with: url, error: SDWebImageV5Error.badImageData("x")))
        XCTAssertFalse(
            env.downloader.shouldBlockFailedURL(
                with: url,
                error: NSError(domain: NSURLErrorDomain, code: NSURLErrorTimedOut)))
        let call = try XCTUnwrap(env.loadV5Finished(url))
        XCTAssertEqual(call.errorDomain, SDWebImageErrorDomain)
        XCTAssertEqual(call.errorCode, 2001)
        XCTAssertEqual((call.error as NSError?)?.userInfo["SDWebImageErrorDownloadStatusCodeKey"] as? Int, 404)
        XCTAssertFalse(env.manager.failedURLs.contains(url))
        XCTAssertEqual(env.loadV5Finished(url)?.errorCode, 2001)
        XCTAssertEqual(env.server.hits("/missing.png"), 2, "not blocked: asked again")

        env.server.route("/text.png", .data(Data("not an image".utf8), contentType: "image/png"))
        let textURL = env.server.url("/text.png")
        XCTAssertEqual(env.loadV5Finished(textURL)?.errorCode, 1001)
        XCTAssertTrue(env.manager.failedURLs.contains(textURL))
        XCTAssertEqual(env.loadV5Finished(textURL)?.errorCode, 1003)
        XCTAssertEqual(env.server.hits("/text.png"), 1)
    }
}
