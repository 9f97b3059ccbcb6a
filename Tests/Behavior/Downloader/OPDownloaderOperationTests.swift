import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// `SDWebImageDownloaderOperation` (4.4.8 `SDWebImageDownloaderOperation.m`): lifecycle, progress, response
/// and status handling, decoding, cancelling, credentials, the will-cache rule and ContinueInBackground.
final class OPDownloaderOperationTests: XCTestCase {
    private var env: DownloaderTestEnvironment!
    private var server: SDPortTestServer { env.server }
    private var downloader: SDWebImageDownloader { env.downloader }
    private let fixtureSize = (try? TestFixtures.data("baseline.jpg").count) ?? -1

    override func setUpWithError() throws {
        env = try DownloaderTestEnvironment(prefix: "op-urlcache") { server in
            server.route("/a.jpg", .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg"))
            server.route("/stall.jpg", .stall)
        }
    }

    override func tearDown() {
        env.tearDown()
        env = nil
    }

    private func download(_ path: String, options: SDWebImageDownloaderOptions = []) -> DownloadRecorder {
        downloadAndWait(downloader, server.url(path), options: options)
    }

    // MARK: OP-01

    /// Parity: OP-01 — an asynchronous Operation subclass, neither executing nor finished before it starts.
    func test_OP01_isAnAsynchronousOperation() {
        let operation = SDWebImageDownloaderOperation(
            request: URLRequest(url: server.url("/a.jpg")), in: nil, options: [])
        XCTAssertTrue(operation.isAsynchronous)
        XCTAssertFalse(operation.isExecuting)
        XCTAssertFalse(operation.isFinished)
        XCTAssertTrue(operation.shouldDecompressImages)
    }

    /// Parity: OP-01 — `start` on a cancelled operation finishes it at once and drops the callbacks; nothing
    /// is requested.
    func test_OP01_startOnACancelledOperationFinishesAndResets() {
        let operation = SDWebImageDownloaderOperation(
            request: URLRequest(url: server.url("/a.jpg")), in: nil, options: [])
        let recorder = DownloadRecorder()
        XCTAssertNotNil(operation.addHandlers(forProgress: recorder.progress, completed: recorder.completed))
        operation.cancel()
        operation.start()
        XCTAssertTrue(operation.isFinished)
        XCTAssertFalse(operation.isExecuting)
        XCTAssertNil(operation.dataTask)
        XCTAssertNil(operation.addHandlers(forProgress: nil, completed: nil), "a finished operation takes no callbacks")
        XCTAssertTrue(recorder.completions.isEmpty && recorder.progressCalls.isEmpty)
        XCTAssertEqual(server.totalHits, 0)
    }

    /// Parity: OP-01 — an operation without an injected session makes (and owns) its own, and downloads.
    func test_OP01_runsWithItsOwnSession() {
        let operation = SDWebImageDownloaderOperation(
            request: URLRequest(url: server.url("/a.jpg")), in: nil, options: [])
        let done = expectation(description: "own session")
        let recorder = DownloadRecorder { done.fulfill() }
        _ = operation.addHandlers(forProgress: recorder.progress, completed: recorder.completed)
        let queue = OperationQueue()
        queue.addOperation(operation)
        wait(for: [done], timeout: 10)
        XCTAssertNotNil(recorder.final?.image)
        XCTAssertTrue(waitUntil { operation.isFinished && !operation.isExecuting })
    }

    /// Parity: OP-01 — the first progress call is (0, -1 unknown length, url), before the response.
    func test_OP01_firstProgressIsUnknownLength() throws {
        let recorder = download("/a.jpg")
        let first = try XCTUnwrap(recorder.progressCalls.first)
        XCTAssertEqual(first.received, 0)
        XCTAssertEqual(first.expected, -1)
        XCTAssertEqual(first.url, server.url("/a.jpg"))
    }

    /// Parity: OP-01 — a request that cannot start (the session was invalidated) completes with 4.4.8's error:
    /// NSURLErrorDomain, NSURLErrorUnknown, "Task can't be initialized" (4.2's text was "Connection can't be
    /// initialized").
    func test_OP01_cannotStartCompletesWithAnError() {
        downloader.invalidateSessionAndCancel(true)
        let recorder = download("/a.jpg")
        XCTAssertEqual(recorder.finalCompletions.count, 1)
        XCTAssertEqual(recorder.final?.error?.localizedDescription, "Task can't be initialized")
        XCTAssertEqual(recorder.final?.error?.domain, NSURLErrorDomain)
        XCTAssertEqual(recorder.final?.error?.code, NSURLErrorUnknown)
        XCTAssertEqual(server.totalHits, 0)
        XCTAssertTrue(waitUntil { self.downloader.runningURLCount == 0 })
    }

    /// Parity: OP-01 — `invalidateSessionAndCancel` does nothing on the shared downloader.
    func test_OP01_sharedDownloaderIsNeverInvalidated() {
        SDWebImageDownloader.shared.invalidateSessionAndCancel(true)
        let done = expectation(description: "shared still works")
        let recorder = DownloadRecorder { done.fulfill() }
        SDWebImageDownloader.shared.downloadImage(
            with: server.url("/a.jpg?shared"), options: [], progress: nil,
            completed: recorder.completed)
        wait(for: [done], timeout: 10)
        XCTAssertNotNil(recorder.final?.image)
    }

    // MARK: OP-02

    /// Parity: OP-02 — a valid response reports (0, Content-Length), then the chunks up to the full size.
    func test_OP02_validResponseReportsExpectedSize() {
        let recorder = download("/a.jpg")
        let calls = recorder.progressCalls
        XCTAssertGreaterThanOrEqual(calls.count, 3)
        XCTAssertEqual(calls[1].received, 0)
        XCTAssertEqual(calls[1].expected, fixtureSize)
        XCTAssertEqual(calls.last?.received, fixtureSize)
        XCTAssertEqual(calls.last?.expected, fixtureSize)
    }

    /// Parity: OP-02 — without Content-Length (chunked) the expected size is 0.
    func test_OP02_unknownLengthIsZero() {
        server.route("/chunked.jpg", .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg").chunked())
        let recorder = download("/chunked.jpg")
        XCTAssertNotNil(recorder.final?.image)
        XCTAssertEqual(
            recorder.progressCalls.dropFirst().map(\.expected),
            Array(repeating: 0, count: recorder.progressCalls.count - 1))
        XCTAssertEqual(recorder.progressCalls.last?.received, fixtureSize)
    }

    /// Parity: OP-02 — a close-delimited body (no Content-Length, connection closed at the end) is complete.
    func test_OP02_closeDelimitedBody() {
        server.route(
            "/closed.jpg", .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg").withoutContentLength())
        let recorder = download("/closed.jpg")
        XCTAssertNil(recorder.final?.error)
        XCTAssertEqual(recorder.final?.data?.count, fixtureSize)
    }

    /// Parity: OP-02 — an invalid status gets no (0, expected) progress and no data: the response is cancelled
    /// (4.4.8's `NSURLSessionResponseCancel`), so the error is NSURLErrorCancelled, the status in userInfo.
    func test_OP02_invalidStatusGetsNoResponseProgress() {
        server.route("/gone.jpg", .status(410, body: Data(repeating: 0xFF, count: 500)))
        let recorder = download("/gone.jpg")
        XCTAssertEqual(recorder.progressCalls.count, 1, "only the initial (0, -1)")
        XCTAssertEqual(recorder.final?.error?.domain, NSURLErrorDomain)
        XCTAssertEqual(recorder.final?.error?.code, NSURLErrorCancelled)
        XCTAssertEqual(recorder.final?.error?.userInfo["statusCode"] as? Int, 410)
        XCTAssertNil(recorder.final?.data)
    }

    // MARK: OP-03

    /// Parity: OP-03 — data arriving in pieces: one progress call per piece, growing to the full size.
    func test_OP03_progressForEveryChunk() {
        server.route(
            "/trickle.jpg",
            .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg")
                .trickle(chunkSize: 300, interval: 0.01))
        let recorder = download("/trickle.jpg")
        let received = recorder.progressCalls.dropFirst(2).map(\.received)
        XCTAssertGreaterThanOrEqual(received.count, 4, "several pieces")
        XCTAssertEqual(received, received.sorted())
        XCTAssertEqual(received.last, fixtureSize)
        XCTAssertNotNil(recorder.final?.image)
    }

    /// Parity: OP-03 — with `ProgressiveDownload`, partial images arrive with finished = false before the
    /// final one; without it, there are none.
    func test_OP03_progressiveDownloadDeliversPartialImages() throws {
        server.route(
            "/progressive.jpg",
            .file(TestFixtures.url("progressive.jpg"), contentType: "image/jpeg")
                .trickle(chunkSize: 1024, interval: 0.02))
        let progressive = download("/progressive.jpg", options: .progressiveDownload)
        let partials = progressive.completions.filter { !$0.finished }
        XCTAssertGreaterThan(partials.count, 0, "at least one partial image")
        XCTAssertTrue(partials.allSatisfy { $0.image != nil && $0.data == nil && $0.error == nil })
        XCTAssertEqual(progressive.completions.last?.finished, true, "the final image comes last")
        XCTAssertEqual(progressive.final?.image?.pixelWidth, 256)

        let plain = download("/progressive.jpg")
        XCTAssertTrue(plain.completions.allSatisfy(\.finished))
    }

    /// Parity: OP-03, COD-03 — a progressive WebP download: the WebP coder is the progressive coder for it, so
    /// partial images (the full size, the rows decoded so far, the rest transparent) arrive before the final one.
    func test_OP03_progressiveWebpDownloadDeliversPartialImages() throws {
        server.route(
            "/gradient.webp",
            .file(TestFixtures.url("lossless-gradient.webp"), contentType: "image/webp")
                .trickle(chunkSize: 1024, interval: 0.02))
        let recorder = download("/gradient.webp", options: .progressiveDownload)
        let partials = recorder.completions.filter { !$0.finished }
        XCTAssertGreaterThan(partials.count, 0, "at least one partial image")
        let first = try XCTUnwrap(partials.first?.image)
        XCTAssertEqual(first.pixelWidth, 256)
        XCTAssertEqual(first.pixelHeight, 192)
        XCTAssertEqual(first.sd_imageFormat, .webp)
        XCTAssertEqual(first.pixel(x: 0, y: 0).a, 255, "the top rows are decoded")
        XCTAssertEqual(first.pixel(x: 0, y: 191).a, 0, "the bottom rows have not arrived")
        XCTAssertTrue(partials.allSatisfy { $0.image != nil && $0.data == nil && $0.error == nil })
        XCTAssertEqual(recorder.completions.last?.finished, true, "the final image comes last")
        let final = try XCTUnwrap(recorder.final?.image)
        XCTAssertEqual(
            final.pixels,
            try SDWebImageWebPCoder.shared.decodeImage(from: TestFixtures.data("lossless-gradient.webp")).pixels)
    }

    // MARK: OP-10

    /// Parity: OP-10 — with `ProgressiveDownload` the last chunk is decoded too and delivered as a partial image
    /// (finished = false) before the final image, as 4.4.8 does (`SDWebImageDownloaderOperation.m:322-357`): a body
    /// that arrives in one chunk gives exactly one partial image, then the final one.
    func test_OP10_lastChunkIsDeliveredAsAPartialImage() throws {
        let recorder = download("/a.jpg", options: .progressiveDownload)
        XCTAssertEqual(recorder.progressCalls.filter { $0.received > 0 }.count, 1, "the body came in one chunk")
        XCTAssertEqual(recorder.completions.map(\.finished), [false, true], "one partial image, then the final one")
        let partial = try XCTUnwrap(recorder.completions.first)
        XCTAssertEqual(partial.image?.pixelWidth, 256)
        XCTAssertNil(partial.data)
        XCTAssertNil(partial.error)
        XCTAssertEqual(recorder.final?.data, try TestFixtures.data("baseline.jpg"))
    }

    /// Parity: OP-10 — a response without a Content-Length gives no partial image: only a known length
    /// (`self.expectedSize > 0`, 4.4.8 `SDWebImageDownloaderOperation.m:322`) lets a chunk be decoded.
    func test_OP10_noContentLengthGivesNoPartialImage() throws {
        server.route(
            "/nolength.jpg",
            .file(TestFixtures.url("progressive.jpg"), contentType: "image/jpeg")
                .withoutContentLength().trickle(chunkSize: 1024, interval: 0.005))
        let recorder = download("/nolength.jpg", options: .progressiveDownload)
        XCTAssertGreaterThan(recorder.progressCalls.filter { $0.received > 0 }.count, 1, "the body came in pieces")
        XCTAssertTrue(recorder.progressCalls.allSatisfy { $0.expected <= 0 }, "no length was announced")
        XCTAssertEqual(recorder.completions.map(\.finished), [true], "no partial image")
        XCTAssertEqual(recorder.final?.image?.pixelWidth, 256)
    }

    /// Parity: OP-10 — an animated WebP gets no partial image: 4.4.8's WebP coder hands every chunk to libwebp's
    /// incremental decoder, which refuses animations, so it returns nil, the last chunk too
    /// (`SDWebImageWebPCoder.m:149-163`), and the operation delivers only what the coder returns.
    func test_OP10_animatedWebPGivesNoPartialImage() throws {
        let webp = try TestFixtures.data("animated.webp")
        server.route("/animated.webp", .data(webp, contentType: "image/webp").trickle(chunkSize: 40, interval: 0.005))
        let recorder = download("/animated.webp", options: .progressiveDownload)
        let chunks = recorder.progressCalls.filter { $0.received > 0 }
        XCTAssertGreaterThan(chunks.count, 1, "the body came in pieces")
        XCTAssertTrue(chunks.allSatisfy { $0.expected == webp.count }, "the length was known")
        XCTAssertEqual(recorder.completions.map(\.finished), [true], "no partial image, only the final one")
        XCTAssertEqual(recorder.final?.image?.distinctFrames.count, 3, "the final image is the animation")
    }

    // MARK: OP-04

    /// Parity: OP-04 — the data is decoded; the completion has the image, the data and finished = true.
    func test_OP04_decodesTheImage() throws {
        let recorder = download("/a.jpg")
        let final = try XCTUnwrap(recorder.final)
        XCTAssertNil(final.error)
        XCTAssertEqual(final.image?.pixelWidth, 256)
        XCTAssertEqual(final.image?.pixelHeight, 192)
        XCTAssertEqual(final.image?.sd_imageFormat, .jpeg)
        XCTAssertEqual(final.data, try TestFixtures.data("baseline.jpg"))
        XCTAssertTrue(final.onMainQueue, "4.4.8 calls completion blocks through dispatch_main_async_safe")
    }

    /// Parity: OP-04 — every completion block, the partial images of a progressive download included, runs on
    /// the main queue (a main-queue block, not just the main thread).
    func test_OP04_completionsRunOnTheMainQueue() {
        server.route(
            "/progressive.jpg",
            .file(TestFixtures.url("progressive.jpg"), contentType: "image/jpeg")
                .trickle(chunkSize: 1024, interval: 0.02))
        let recorder = download("/progressive.jpg", options: .progressiveDownload)
        XCTAssertGreaterThan(recorder.completions.count, 1, "partial images and the final one")
        XCTAssertTrue(recorder.completions.allSatisfy(\.onMainQueue))
        let failed = download("/missing-\(UUID().uuidString).jpg")
        XCTAssertNotNil(failed.final?.error)
        XCTAssertEqual(failed.final?.onMainQueue, true, "errors too")
    }

    /// Parity: OP-04 (port addition) — a program that never drains the main queue sets the downloader's
    /// `completionQueue`; completions then arrive there while the main thread is blocked.
    func test_OP04_completionQueueServesProgramsWithoutAMainQueue() throws {
        let queue = DispatchQueue(label: "sdport.test.op.completions")
        let marker = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: marker, value: true)
        downloader.completionQueue = queue
        let onQueue = Locked<Bool?>(nil)
        let finished = DispatchSemaphore(value: 0)
        downloader.downloadImage(with: server.url("/a.jpg"), options: [], progress: nil) { image, _, _, done in
            onQueue.update { $0 = DispatchQueue.getSpecific(key: marker) == true && image != nil }
            if done { finished.signal() }
        }
        // The main thread blocks here, so the main queue cannot run the completion.
        XCTAssertEqual(finished.wait(timeout: .now() + 15), .success)
        XCTAssertEqual(onQueue.value, true)
    }

    /// Parity: OP-04 — the scale comes from the *shared manager's* cache key, as 4.4.8's operation asks
    /// `[SDWebImageManager sharedManager]`: a `cacheKeyFilter` there that maps a URL to a key with "@2x." gives
    /// scale 2, even for a download on another downloader, whose URL says nothing about scale.
    func test_OP04_scaleFromTheSharedManagersCacheKey() throws {
        let shared = SDWebImageManager.shared
        let previous = shared.cacheKeyFilter
        shared.cacheKeyFilter = { url in url.map { "retina-\($0.lastPathComponent)@2x.jpg" } }
        defer { shared.cacheKeyFilter = previous }
        let image = try XCTUnwrap(download("/a.jpg?filtered").final?.image)
        XCTAssertEqual(image.scale, 2)
        XCTAssertEqual(image.size.width, 128, "256 pixels at scale 2")
        shared.cacheKeyFilter = nil
        XCTAssertEqual(download("/a.jpg?unfiltered").final?.image?.scale, 1, "no filter: the URL's own key")
    }

    /// Parity: OP-04 — the scale comes from the URL (@2x).
    func test_OP04_scaleFromTheKey() throws {
        server.route("/photo@2x.png", .file(TestFixtures.url("photo@2x.png"), contentType: "image/png"))
        let image = try XCTUnwrap(download("/photo@2x.png").final?.image)
        XCTAssertEqual(image.scale, 2)
        XCTAssertEqual(image.size.width, 10)
        XCTAssertEqual(image.size.height, 5)
    }

    /// Parity: OP-04 — images are force-decoded unless `shouldDecompressImages` is off.
    func test_OP04_decompressUnlessDisabled() throws {
        XCTAssertEqual(download("/a.jpg").final?.image?.sd_isDecoded, true)
        downloader.shouldDecompressImages = false
        XCTAssertEqual(download("/a.jpg?again").final?.image?.sd_isDecoded, false)
    }

    /// Parity: OP-04 — animated images keep their frames and are not force-decoded.
    func test_OP04_animatedImagesAreNotDecompressed() throws {
        server.route("/animated.gif", .file(TestFixtures.url("animated.gif"), contentType: "image/gif"))
        let image = try XCTUnwrap(AnimatedGIFCoding.enabled { download("/animated.gif").final?.image })
        XCTAssertEqual(image.distinctFrames.count, 5)
        XCTAssertFalse(image.sd_isDecoded)
        // And as 4.4.8's operation, a GIF is not force-decoded there even when the default coders make it still
        // (the cache's disk path decodes it, FAQ-13).
        let still = try XCTUnwrap(download("/animated.gif?still").final?.image)
        XCTAssertNil(still.images)
        XCTAssertFalse(still.sd_isDecoded)
    }

    /// Parity: OP-04 — `ScaleDownLargeImages` reaches the decompression step and shrinks an image over the
    /// limit (5250×3450 here), keeping its aspect ratio. (That the coders keep the size without the option is
    /// the coders' own test; decompressing this image at full size would only make this one slow.)
    func test_OP04_scaleDownLargeImages() throws {
        server.route("/large.png", .file(TestFixtures.url("large.png"), contentType: "image/png"))
        // 18 megapixels to decode and shrink: a generous deadline, because under the thread sanitizer it takes
        // well over 30 s (a deadline, not a timing assertion).
        let scaled = try XCTUnwrap(
            downloadAndWait(
                downloader, server.url("/large.png"), options: .scaleDownLargeImages,
                timeout: 240
            ).final?.image)
        XCTAssertLessThan(scaled.pixelWidth * scaled.pixelHeight, 5250 * 3450)
        XCTAssertGreaterThan(scaled.pixelWidth, 0)
        XCTAssertEqual(Double(scaled.pixelWidth) / Double(scaled.pixelHeight), 5250.0 / 3450.0, accuracy: 0.01)
    }

    /// Parity: OP-04 — a decoded image with zero pixels: "Downloaded image has 0 pixels".
    func test_OP04_zeroPixelImageIsAnError() {
        let coder = OPZeroPixelCoder()
        SDWebImageCodersManager.shared.addCoder(coder)
        defer { SDWebImageCodersManager.shared.removeCoder(coder) }
        server.route("/zero.img", .data(OPZeroPixelCoder.signature, contentType: "application/octet-stream"))
        let recorder = download("/zero.img")
        XCTAssertEqual(recorder.final?.error?.domain, SDWebImageErrorDomain)
        XCTAssertEqual(recorder.final?.error?.localizedDescription, "Downloaded image has 0 pixels")
        XCTAssertNil(recorder.final?.image)
    }

    /// Parity: OP-04 — `IgnoreCachedResponse`: a response the protocol cache answered completes with
    /// (nil, nil, nil, true).
    func test_OP04_ignoreCachedResponse() {
        server.route(
            "/fresh.jpg", .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg").cacheControl("max-age=600")
        )
        XCTAssertNotNil(download("/fresh.jpg", options: .useNSURLCache).final?.image)
        let recorder = download("/fresh.jpg", options: [.useNSURLCache, .ignoreCachedResponse])
        XCTAssertEqual(recorder.finalCompletions.count, 1)
        XCTAssertNil(recorder.final?.image)
        XCTAssertNil(recorder.final?.data)
        XCTAssertNil(recorder.final?.error)
        XCTAssertEqual(server.hits("/fresh.jpg"), 1)
    }

    // MARK: OP-05

    /// Parity: OP-05, DL-18 — `cancel` stops the transfer, posts the stop notification, ends executing and
    /// finished, drops the callbacks; a second `cancel` changes nothing. Through the downloader "stop" is posted
    /// once: `cancel` drops the task (`reset`), so the downloader, the session's delegate, finds no operation for
    /// the cancelled task's late completion and forwards nothing (4.4.8 `SDWebImageDownloader.m:353-369`).
    func test_OP05_cancelIsIdempotent() throws {
        let stops = Locked(0)
        let token = try XCTUnwrap(
            downloader.downloadImage(
                with: server.url("/stall.jpg"), options: [], progress: nil,
                completed: { _, _, _, _ in XCTFail("a cancelled download is not completed") }))
        let operation = try XCTUnwrap(token.downloadOperation as? SDWebImageDownloaderOperation)
        let observer = NotificationCenter.default.addObserver(
            forName: SDWebImageDownloadStopNotification, object: operation,
            queue: nil
        ) { _ in stops.update { $0 += 1 } }
        defer { NotificationCenter.default.removeObserver(observer) }
        XCTAssertTrue(waitUntil { self.server.hits("/stall.jpg") == 1 && operation.isExecuting })
        operation.cancel()
        XCTAssertTrue(operation.isCancelled)
        XCTAssertTrue(operation.isFinished)
        XCTAssertFalse(operation.isExecuting)
        XCTAssertNil(operation.dataTask)
        operation.cancel()
        XCTAssertTrue(waitUntil { stops.value >= 1 })
        XCTAssertTrue(waitUntil { self.downloader.runningURLCount == 0 })
        // The cancelled task's end reaches the session's delegate queue before the next download's callbacks, and
        // the notification it would post is queued on main before this download's completion: both have run.
        XCTAssertNotNil(download("/a.jpg").final?.image)
        XCTAssertEqual(stops.value, 1, "cancelInternal's only: the late didCompleteWithError is not forwarded")
    }

    /// Parity: DL-18 — an operation made without a session makes one of its own (`ownedSession`) and is that
    /// session's delegate, so the cancelled task's end reaches it: "stop" is posted twice, once by `cancel` and
    /// once by `didCompleteWithError` (4.4.8 `SDWebImageDownloaderOperation.m:148-160,383-392`).
    func test_DL18_operationOnItsOwnSessionPostsStopTwiceOnCancel() throws {
        let operation = SDWebImageDownloaderOperation(
            request: URLRequest(url: server.url("/stall.jpg")), in: nil, options: [])
        let stops = Locked(0)
        let observer = NotificationCenter.default.addObserver(
            forName: SDWebImageDownloadStopNotification, object: operation,
            queue: nil
        ) { _ in stops.update { $0 += 1 } }
        defer { NotificationCenter.default.removeObserver(observer) }
        _ = operation.addHandlers(
            forProgress: nil, completed: { _, _, _, _ in XCTFail("a cancelled download is not completed") })
        let queue = OperationQueue()
        queue.addOperation(operation)
        XCTAssertTrue(waitUntil { self.server.hits("/stall.jpg") == 1 && operation.isExecuting })
        operation.cancel()
        XCTAssertTrue(waitUntil { stops.value >= 2 }, "cancel's stop and didCompleteWithError's")
        XCTAssertNotNil(download("/a.jpg").final?.image)  // lets any stray notification arrive
        XCTAssertEqual(stops.value, 2)
    }

    /// Parity: DL-18 — the downloader is its session's delegate and hands each task's callbacks to the operation
    /// that owns the task: two operations running at once each hear only their own task, and each gets its own bytes.
    /// Both requests are held at the server until both are in flight, then trickle their bodies side by side.
    func test_DL18_downloaderRoutesEachTaskToItsOperation() throws {
        XCTAssertTrue(downloader.sessionDelegate === downloader, "the downloader is the session's delegate")
        let gate = SDPortTestGate()
        server.route(
            "/b.jpg",
            .file(TestFixtures.url("progressive.jpg"), contentType: "image/jpeg")
                .trickle(chunkSize: 2048, interval: 0.005).held(by: gate))
        server.route(
            "/c.jpg",
            .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg")
                .trickle(chunkSize: 2048, interval: 0.005).held(by: gate))
        downloader.setOperationClass(DLTaskCheckingOperation.self)
        defer { downloader.setOperationClass(nil) }
        let b = DownloadRecorder()
        let c = DownloadRecorder()
        let both = expectation(description: "both downloads")
        both.expectedFulfillmentCount = 2
        for (path, recorder) in [("/b.jpg", b), ("/c.jpg", c)] {
            downloader.downloadImage(with: server.url(path), options: [], progress: nil) {
                image, data, error, finished in
                recorder.completed(image, data, error, finished)
                if finished { both.fulfill() }
            }
        }
        XCTAssertTrue(waitUntil { self.server.requestsInFlight == 2 }, "both downloads are in flight at once")
        XCTAssertEqual(downloader.currentDownloadCount, 2)
        gate.open()
        wait(for: [both], timeout: 20)
        XCTAssertEqual(server.maxConcurrentRequests, 2, "the two downloads overlapped")
        XCTAssertEqual(b.final?.data, try TestFixtures.data("progressive.jpg"))
        XCTAssertEqual(c.final?.data, try TestFixtures.data("baseline.jpg"))
        XCTAssertEqual(DLTaskCheckingOperation.foreignCallbacks.value, 0, "no operation heard another's task")
        XCTAssertGreaterThan(
            DLTaskCheckingOperation.callbacks.value, 4, "responses, chunks and completions were forwarded")
    }

    // MARK: OP-06

    /// Parity: OP-06 — `cancel(token)` says whether the whole operation was cancelled: only for the last caller.
    func test_OP06_cancelTokenReportsWholeOperationCancel() {
        let operation = SDWebImageDownloaderOperation(
            request: URLRequest(url: server.url("/a.jpg")), in: nil, options: [])
        let first = operation.addHandlers(forProgress: nil, completed: { _, _, _, _ in })
        let second = operation.addHandlers(forProgress: nil, completed: { _, _, _, _ in })
        XCTAssertFalse(operation.cancel(first))
        XCTAssertFalse(operation.isCancelled)
        XCTAssertTrue(operation.cancel(second))
        XCTAssertTrue(operation.isCancelled)
    }

    // MARK: OP-07

    /// Parity: OP-07 — the credential is used once: a server that rejects it gets exactly two requests, and the
    /// second challenge is cancelled, so the download ends as NSURLErrorCancelled (not a 401 error; the status
    /// is in userInfo) and the manager would not blacklist it.
    func test_OP07_credentialIsUsedOnce() throws {
        server.route(
            "/auth.jpg",
            .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg")
                .requireBasicAuth(user: "sd", password: "secret"))
        downloader.urlCredential = URLCredential(user: "sd", password: "wrong", persistence: .forSession)
        let recorder = download("/auth.jpg")
        XCTAssertEqual(recorder.final?.error?.domain, NSURLErrorDomain)
        XCTAssertEqual(recorder.final?.error?.code, NSURLErrorCancelled)
        XCTAssertEqual(recorder.final?.error?.userInfo["statusCode"] as? Int, 401)
        XCTAssertTrue(recorder.final?.error?.localizedDescription.contains("rejected") ?? false)
        XCTAssertEqual(server.hits("/auth.jpg"), 2)
        XCTAssertEqual(recorder.progressCalls.count, 1, "the 401 never became the response: only (0, -1)")
        XCTAssertFalse(SDWebImageManager.shouldBlockFailedURL(with: try XCTUnwrap(recorder.final?.error)))
    }

    // MARK: OP-08

    /// Parity: OP-08 — without `UseNSURLCache` (ReloadIgnoringLocalCacheData) the response is not stored in
    /// the protocol cache, even when the server allows caching; with it, it is.
    func test_OP08_responsesAreStoredOnlyWithUseNSURLCache() throws {
        server.route(
            "/cacheable.jpg",
            .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg").cacheControl("max-age=600"))
        let cache = try XCTUnwrap(downloader.urlCache)
        let request = URLRequest(url: server.url("/cacheable.jpg"))
        XCTAssertNotNil(download("/cacheable.jpg").final?.image)
        XCTAssertNil(cache.cachedResponse(for: request))
        XCTAssertNotNil(download("/cacheable.jpg", options: .useNSURLCache).final?.image)
        XCTAssertEqual(cache.cachedResponse(for: request)?.data, try TestFixtures.data("baseline.jpg"))
    }

    // MARK: OP-09

    /// Parity: OP-09 — `ContinueInBackground` is accepted and changes nothing on Linux.
    func test_OP09_continueInBackgroundIsANoOp() {
        let recorder = download("/a.jpg", options: .continueInBackground)
        XCTAssertNil(recorder.final?.error)
        XCTAssertEqual(recorder.final?.image?.pixelWidth, 256)
    }
}
