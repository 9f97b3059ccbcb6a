import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// 4.4.8 downloader API the first port lacked: `createNewSessionWithConfiguration:` (DL-15), the redirect hop
/// forwarded to the operation (DL-16), and `cancel:` looking the operation up by the token's URL (DL-11).
final class DLSessionAndRedirectTests: XCTestCase {
    private var env: DownloaderTestEnvironment!
    private var server: SDPortTestServer { env.server }
    private var downloader: SDWebImageDownloader { env.downloader }

    override func setUpWithError() throws {
        env = try DownloaderTestEnvironment(prefix: "dl-session") { server in
            server.route("/ok.jpg", .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg"))
            server.route("/other.png", .file(TestFixtures.url("rgba.png"), contentType: "image/png"))
            server.route("/stall.jpg", .stall)
        }
        DLRedirectRecordingOperation.answer.value = .follow
        DLRedirectRecordingOperation.hops.value = []
    }

    override func tearDown() {
        env.tearDown()
        env = nil
    }

    // MARK: DL-15

    /// Parity: DL-15 — `createNewSession(with:)` cancels every download (callbacks dropped, not called), puts the
    /// downloader's timeout into the new configuration, and later downloads run in the new session. (4.4.8 sets
    /// the timeout on the caller's configuration object; the port sets it on a copy.)
    func test_DL15_createNewSessionCancelsEverythingAndSwapsTheSession() throws {
        let token = try XCTUnwrap(
            downloader.downloadImage(
                with: server.url("/stall.jpg"), options: [], progress: nil,
                completed: { _, _, _, _ in XCTFail("a download cancelled by createNewSession is not completed") }))
        let operation = try XCTUnwrap(token.downloadOperation)
        XCTAssertTrue(waitUntil { self.server.hits("/stall.jpg") == 1 })

        downloader.downloadTimeout = 7
        let configuration = URLSessionConfiguration.default
        configuration.timeoutIntervalForRequest = 99
        configuration.httpAdditionalHeaders = ["X-New-Session": "yes"]
        downloader.createNewSession(with: configuration)

        XCTAssertTrue(operation.isCancelled)
        XCTAssertTrue(waitUntil { self.downloader.runningURLCount == 0 && self.downloader.currentDownloadCount == 0 })
        XCTAssertEqual(downloader.sessionConfiguration.timeoutIntervalForRequest, 7, "the downloader's timeout")
        XCTAssertEqual(configuration.timeoutIntervalForRequest, 99, "the caller's object is left alone (port)")

        let recorder = downloadAndWait(downloader, server.url("/ok.jpg"))
        XCTAssertNotNil(recorder.final?.image)
        XCTAssertEqual(server.requests("/ok.jpg").last?.header("X-New-Session"), "yes", "sent through the new session")
        drainMainQueue()  // lets a stray completion of the cancelled download show itself
    }

    // MARK: DL-16

    /// Parity: DL-16 — by default a redirect is followed, and every hop passes through the operation first.
    func test_DL16_eachRedirectHopPassesThroughTheOperationAndIsFollowed() {
        server.route("/first.jpg", .redirect(to: "/second.jpg", status: 301))
        server.route("/second.jpg", .redirect(to: "/ok.jpg", status: 307))
        downloader.setOperationClass(DLRedirectRecordingOperation.self)
        let recorder = downloadAndWait(downloader, server.url("/first.jpg"))
        XCTAssertEqual(recorder.final?.image?.pixelWidth, 256)
        let hops = DLRedirectRecordingOperation.hops.value
        XCTAssertEqual(hops.map(\.status), [301, 307])
        XCTAssertEqual(hops.map(\.to), [server.url("/second.jpg"), server.url("/ok.jpg")])
        XCTAssertEqual(hops.first?.from, server.url("/first.jpg"))
        XCTAssertEqual(server.hits("/ok.jpg"), 1)
    }

    /// Parity: DL-16 — the default operation follows without being asked to (4.4.8's operation does not implement
    /// the hook, so the session's default, following, applies).
    func test_DL16_theDefaultOperationFollows() {
        server.route("/moved.jpg", .redirect(to: "/ok.jpg", status: 302))
        let recorder = downloadAndWait(downloader, server.url("/moved.jpg"))
        XCTAssertNotNil(recorder.final?.image)
        XCTAssertEqual(server.hits("/moved.jpg"), 1)
        XCTAssertEqual(server.hits("/ok.jpg"), 1)
    }

    /// Parity: DL-16 — an operation that answers nil stops at the redirect: its response is the final one (a
    /// 302 is not an invalid status) and its empty body gives "Image data is nil"; the target is never asked for.
    func test_DL16_anOperationCanStopARedirect() {
        server.route("/moved.jpg", .redirect(to: "/ok.jpg", status: 302))
        downloader.setOperationClass(DLRedirectRecordingOperation.self)
        DLRedirectRecordingOperation.answer.value = .stop
        let recorder = downloadAndWait(downloader, server.url("/moved.jpg"))
        XCTAssertNil(recorder.final?.image)
        XCTAssertEqual(recorder.final?.error?.domain, SDWebImageErrorDomain)
        XCTAssertEqual(recorder.final?.error?.localizedDescription, "Image data is nil")
        XCTAssertEqual(DLRedirectRecordingOperation.hops.value.count, 1)
        XCTAssertEqual(server.hits("/ok.jpg"), 0)
    }

    /// Parity: DL-16 — an operation can send the hop somewhere else.
    func test_DL16_anOperationCanRewriteARedirect() {
        server.route("/moved.jpg", .redirect(to: "/ok.jpg", status: 302))
        downloader.setOperationClass(DLRedirectRecordingOperation.self)
        DLRedirectRecordingOperation.answer.value = .rewrite(server.url("/other.png"))
        let recorder = downloadAndWait(downloader, server.url("/moved.jpg"))
        XCTAssertEqual(recorder.final?.image?.sd_imageFormat, .png)
        XCTAssertEqual(server.hits("/other.png"), 1)
        XCTAssertEqual(server.hits("/ok.jpg"), 0)
    }

    // MARK: DL-11 (4.4.8's lookup by URL)

    /// Parity: DL-11 — `cancel(token)` looks the operation up by `token.url` in `URLOperations`, as 4.4.8: a token
    /// whose download finished and left the list cancels nothing, not even a newer download of the same URL.
    func test_DL11_cancelLooksTheOperationUpByTheTokensURL() throws {
        let url = server.url("/ok.jpg")
        let done = expectation(description: "first download")
        let first = DownloadRecorder { done.fulfill() }
        let oldToken = try XCTUnwrap(
            downloader.downloadImage(with: url, options: [], progress: nil, completed: first.completed))
        wait(for: [done], timeout: 10)
        XCTAssertTrue(waitUntil { self.downloader.runningURLCount == 0 })

        // Suspended, the new download stays listed (queued) while the old token cancels: no timing involved.
        downloader.setSuspended(true)
        let secondDone = expectation(description: "second download")
        let second = DownloadRecorder { secondDone.fulfill() }
        let newToken = try XCTUnwrap(
            downloader.downloadImage(with: url, options: [], progress: nil, completed: second.completed))
        let newOperation = try XCTUnwrap(newToken.downloadOperation)
        downloader.cancel(oldToken)
        XCTAssertFalse(newOperation.isCancelled, "the old token finds the new operation, which keeps its caller")
        XCTAssertTrue(downloader.runningOperation(for: url) === newOperation)
        downloader.setSuspended(false)
        wait(for: [secondDone], timeout: 10)
        XCTAssertNotNil(second.final?.image)

        // And a live token finds its operation through the URL and cancels it.
        server.route("/slow.jpg", .stall)
        let liveToken = try XCTUnwrap(
            downloader.downloadImage(
                with: server.url("/slow.jpg"), options: [], progress: nil,
                completed: { _, _, _, _ in }))
        let operation = try XCTUnwrap(liveToken.downloadOperation)
        downloader.cancel(liveToken)
        XCTAssertTrue(operation.isCancelled)
        XCTAssertNil(downloader.runningOperation(for: server.url("/slow.jpg")))
    }
}
