import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// Bad input and network faults: each ends in exactly one completion with an error that says what happened,
/// nothing decoded, no operation left in `URLOperations`, and the download slot free for the next download
/// (the downloader runs one download at a time here, so a leaked slot would block the follow-up).
final class DLDownloaderFaultTests: XCTestCase {
    private var env: DownloaderTestEnvironment!
    private var server: SDPortTestServer { env.server }
    private var downloader: SDWebImageDownloader { env.downloader }

    override func setUpWithError() throws {
        env = try DownloaderTestEnvironment(prefix: "dl-fault-urlcache") { server in
            server.route("/ok.jpg", .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg"))
        }
        downloader.maxConcurrentDownloads = 1
    }

    override func tearDown() {
        env.tearDown()
        env = nil
    }

    /// Downloads `url`, waits for its final completion, checks the common fault rules, and returns the error.
    @discardableResult
    private func assertFault(
        _ url: URL, options: SDWebImageDownloaderOptions = [], domain: String = NSURLErrorDomain,
        code: Int, messageContains fragment: String,
        file: StaticString = #filePath, line: UInt = #line
    ) -> NSError? {
        let done = expectation(description: "fault \(url.path)")
        let recorder = DownloadRecorder { done.fulfill() }
        downloader.downloadImage(
            with: url, options: options, progress: recorder.progress, completed: recorder.completed)
        wait(for: [done], timeout: 10)
        let error = recorder.final?.error
        XCTAssertEqual(error?.domain, domain, file: file, line: line)
        XCTAssertEqual(error?.code, code, file: file, line: line)
        let message = error?.localizedDescription ?? ""
        XCTAssertTrue(
            message.contains(fragment), "\"\(message)\" should contain \"\(fragment)\"", file: file, line: line)
        XCTAssertNil(recorder.final?.image, "nothing decoded", file: file, line: line)
        XCTAssertNil(recorder.final?.data, file: file, line: line)
        XCTAssertTrue(
            waitUntil { self.downloader.runningURLCount == 0 }, "URLOperations must be empty", file: file, line: line)
        assertNextDownloadSucceeds(file: file, line: line)
        XCTAssertEqual(recorder.completions.count, 1, "exactly one completion", file: file, line: line)
        return error
    }

    /// The slot is free: a following download (one at a time) completes with an image.
    private func assertNextDownloadSucceeds(file: StaticString = #filePath, line: UInt = #line) {
        let done = expectation(description: "follow-up")
        let recorder = DownloadRecorder { done.fulfill() }
        downloader.downloadImage(
            with: server.url("/ok.jpg?\(UUID().uuidString)"), options: [], progress: nil,
            completed: recorder.completed)
        wait(for: [done], timeout: 10)
        XCTAssertNil(recorder.final?.error, file: file, line: line)
        XCTAssertNotNil(recorder.final?.image, "the follow-up download must succeed", file: file, line: line)
    }

    /// Parity: OP-02 — 404: 4.4.8 cancels the response, so the error is NSURLErrorDomain / NSURLErrorCancelled
    /// (-999); the port adds the status as userInfo `statusCode` and in the message.
    func test_OP02_notFound() {
        server.route("/missing.jpg", .status(404, body: Data("<html>not here</html>".utf8)))
        let error = assertFault(server.url("/missing.jpg"), code: NSURLErrorCancelled, messageContains: "HTTP 404")
        XCTAssertEqual(error?.userInfo["statusCode"] as? Int, 404)
        XCTAssertTrue(error?.localizedDescription.contains(server.url("/missing.jpg").absoluteString) ?? false)
    }

    /// Parity: OP-02 — 500 likewise: cancelled, the status in userInfo.
    func test_OP02_serverError() {
        server.route("/boom.jpg", .status(500))
        let error = assertFault(server.url("/boom.jpg"), code: NSURLErrorCancelled, messageContains: "HTTP 500")
        XCTAssertEqual(error?.userInfo["statusCode"] as? Int, 500)
    }

    /// Parity: OP-02 — a 304 when nothing is cached is cancelled too (4.4.8 treats it like a status >= 400).
    func test_OP02_notModifiedWithNothingCached() {
        server.route("/stale.jpg", .status(304))
        let error = assertFault(
            server.url("/stale.jpg"), options: .useNSURLCache, code: NSURLErrorCancelled,
            messageContains: "nothing is cached")
        XCTAssertEqual(error?.userInfo["statusCode"] as? Int, 304)
    }

    /// Parity: OP-04 — garbage sent as image/jpeg: 4.4.8's decoder gives nil, so "Downloaded image has 0 pixels"
    /// (SDWebImageErrorDomain, code 0); the coder's reason is the underlying error.
    func test_OP04_garbageLabelledAsJPEG() {
        server.route("/garbage.jpg", .data(Data("definitely not an image, just text".utf8), contentType: "image/jpeg"))
        let error = assertFault(
            server.url("/garbage.jpg"), domain: SDWebImageErrorDomain, code: 0,
            messageContains: "Downloaded image has 0 pixels")
        let underlying = error?.userInfo[NSUnderlyingErrorKey] as? NSError
        XCTAssertTrue(
            underlying?.localizedDescription.contains("not a decodable image") ?? false,
            "the coder's reason stays reachable: \(String(describing: underlying))")
    }

    /// Parity: OP-04 — a corrupt JPEG (valid header, random bytes): "0 pixels", with the coder's own error (its
    /// code and reason) underneath.
    func test_OP04_corruptJPEG() throws {
        server.route("/corrupt.jpg", .file(TestFixtures.url("corrupt.jpg"), contentType: "image/jpeg"))
        var coderError: NSError?
        XCTAssertThrowsError(try SDWebImageCodersManager.shared.decodeImage(from: TestFixtures.data("corrupt.jpg"))) {
            coderError = $0 as NSError
        }
        let error = assertFault(
            server.url("/corrupt.jpg"), domain: SDWebImageErrorDomain, code: 0,
            messageContains: "Downloaded image has 0 pixels")
        let underlying = error?.userInfo[NSUnderlyingErrorKey] as? NSError
        XCTAssertEqual(underlying?.code, coderError?.code, "the coder's code is kept underneath")
        XCTAssertNotNil(underlying?.userInfo[NSUnderlyingErrorKey], "and the coder's own error under that")
    }

    /// A body shorter than its Content-Length: NSURLErrorNetworkConnectionLost (-1005), never a partial image.
    func test_OP04_shortBodyIsConnectionLost() {
        server.route(
            "/short.jpg", .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg").closeAfter(bytes: 100))
        assertFault(
            server.url("/short.jpg"), code: NSURLErrorNetworkConnectionLost,
            messageContains: "Connection lost after 100 of")
    }

    /// A Content-Length far beyond memory with a short body. Found by the `http` fuzz harness: its input,
    /// `Fixtures/fuzz/http-content-length-100gb.response`, announces 100 000 100 000 bytes; the operation reserved
    /// them all for the first chunk (4.4.8's `initWithCapacity:`) and the allocation took the process down. The
    /// reservation is capped now, so the download ends in -1005 like any short body.
    func test_OP04_lyingContentLengthDoesNotReserveItsClaim() throws {
        let fuzzed = String(decoding: try TestFixtures.data("fuzz/http-content-length-100gb.response"), as: UTF8.self)
        let claimed = try XCTUnwrap(fuzzed.firstMatch(of: /Content-Length: ([0-9]+)/)?.1)
        XCTAssertGreaterThan(Int(claimed) ?? 0, 1 << 36, "the fuzzed header claims more than this machine has")
        server.route(
            "/huge.jpg",
            .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg")
                .headers(["Content-Length": String(claimed)]).closeAfter(bytes: 100))
        assertFault(
            server.url("/huge.jpg"), code: NSURLErrorNetworkConnectionLost,
            messageContains: "Connection lost after 100 of \(claimed)")
    }

    /// A connection closed before any response (the server goes away): -1005.
    func test_OP04_connectionClosedBeforeTheResponse() throws {
        server.route("/vanish.jpg", .stall)
        let done = expectation(description: "vanish")
        let recorder = DownloadRecorder { done.fulfill() }
        downloader.downloadImage(
            with: server.url("/vanish.jpg"), options: [], progress: nil, completed: recorder.completed)
        XCTAssertTrue(waitUntil { self.server.hits("/vanish.jpg") == 1 })
        server.stop()  // closes the stalled connection
        wait(for: [done], timeout: 10)
        XCTAssertEqual(recorder.final?.error?.code, NSURLErrorNetworkConnectionLost)
        XCTAssertTrue(recorder.final?.error?.localizedDescription.contains("Connection lost") ?? false)
        XCTAssertNil(recorder.final?.image)
        XCTAssertTrue(waitUntil { self.downloader.runningURLCount == 0 })
        try server.start()
        assertNextDownloadSucceeds()
        XCTAssertEqual(recorder.completions.count, 1)
    }

    /// A redirect loop: NSURLErrorHTTPTooManyRedirects (-1007).
    func test_DL07_redirectLoop() {
        server.route("/loop-a.jpg", .redirect(to: "/loop-b.jpg"))
        server.route("/loop-b.jpg", .redirect(to: "/loop-a.jpg"))
        assertFault(server.url("/loop-a.jpg"), code: NSURLErrorHTTPTooManyRedirects, messageContains: "redirect")
    }

    /// A redirect that ends somewhere is followed.
    func test_DL07_redirectIsFollowed() {
        server.route("/moved.jpg", .redirect(to: "/ok.jpg", status: 301))
        let done = expectation(description: "redirect")
        let recorder = DownloadRecorder { done.fulfill() }
        downloader.downloadImage(
            with: server.url("/moved.jpg"), options: [], progress: nil, completed: recorder.completed)
        wait(for: [done], timeout: 10)
        XCTAssertNotNil(recorder.final?.image)
        XCTAssertEqual(server.hits("/ok.jpg"), 1)
    }

    /// Parity: DL-07 — a server that never answers, with `downloadTimeout` 0.5: NSURLErrorTimedOut (-1001)
    /// saying how long it waited.
    func test_DL07_stalledServerTimesOut() {
        server.route("/stall.jpg", .stall)
        downloader.downloadTimeout = 0.5
        assertFault(server.url("/stall.jpg"), code: NSURLErrorTimedOut, messageContains: "Timed out after 0.5 s")
    }

    /// Parity: DL-07 — a server that stops sending in the middle of the body times out the same way; the
    /// bytes that did arrive are not decoded.
    func test_DL07_stallInTheMiddleOfTheBodyTimesOut() {
        server.route(
            "/half.jpg",
            .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg")
                .trickle(chunkSize: 500, interval: 30))  // the first 500 bytes, then silence until the server stops
        downloader.downloadTimeout = 0.5
        assertFault(server.url("/half.jpg"), code: NSURLErrorTimedOut, messageContains: "Timed out after 0.5 s")
    }

    /// The timeout is an idle timeout: a body that keeps arriving (slower than the whole timeout in total)
    /// does not time out.
    func test_DL07_timeoutIsIdleNotTotal() {
        downloader.downloadTimeout = 1
        server.route(
            "/trickle.jpg",
            .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg")
                .trickle(chunkSize: 100, interval: 0.06))  // 20 pieces, ~1.2 s in total, 0.06 s apart
        let done = expectation(description: "trickle")
        let recorder = DownloadRecorder { done.fulfill() }
        downloader.downloadImage(
            with: server.url("/trickle.jpg"), options: [], progress: nil, completed: recorder.completed)
        wait(for: [done], timeout: 10)
        XCTAssertNil(recorder.final?.error)
        XCTAssertNotNil(recorder.final?.image)
    }

    /// Nothing listens on the port: NSURLErrorCannotConnectToHost (-1004).
    func test_DL07_connectionRefused() throws {
        let closed = SDPortTestServer()
        try closed.start()
        let url = closed.url("/a.jpg")
        closed.stop()
        assertFault(url, code: NSURLErrorCannotConnectToHost, messageContains: "Cannot connect")
    }

    /// Parity: OP-04 — an empty 200 body: "Image data is nil".
    func test_OP04_emptyBodyIsImageDataNil() {
        server.route("/empty.png", .file(TestFixtures.url("empty.png"), contentType: "image/png"))
        assertFault(
            server.url("/empty.png"), domain: SDWebImageErrorDomain, code: 0, messageContains: "Image data is nil")
    }
}
