import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// Proves FAQ-17 (the failed-URL list): the card is `Docs/knowledge/faq/FAQ-17.json` (question, answer, citations;
/// `sdport faq 17` prints it).
///
/// Loads through a manager on a loopback server: bytes that do not decode, then the same URL without and with
/// `retryFailed`; a 404 twice; a timeout twice — and checks, from the server's request count and the manager's failed
/// list, which URL is asked again.
final class FAQ17_FailedURLTests: XCTestCase {
    private var env: ManagerTestEnvironment!

    override func setUpWithError() throws { env = try ManagerTestEnvironment() }
    override func tearDown() {
        env.tearDown()
        env = nil
    }

    /// Parity: FAQ-17 — data that does not decode ("Downloaded image has 0 pixels") puts the URL on the list; the
    /// next load is refused without a request; RetryFailed asks again, and its success clears the entry.
    func test_FAQ17_failedURLIsNotTriedAgainUnlessRetryFailed() throws {
        env.server.route("/flaky.png", .data(Data("an error page, not a PNG".utf8), contentType: "image/png"))
        let url = env.server.url("/flaky.png")
        XCTAssertEqual(env.load(url).calls.last?.error?.localizedDescription, "Downloaded image has 0 pixels")
        XCTAssertEqual(env.manager.failedURLs, [url])

        let refused = env.load(url).calls.last
        XCTAssertEqual(refused?.errorCode, NSURLErrorFileDoesNotExist)
        XCTAssertEqual(env.server.hits("/flaky.png"), 1, "no second request")

        env.server.route("/flaky.png", .data(try TestFixtures.data("rgba.png"), contentType: "image/png"))
        XCTAssertNotNil(env.load(url, options: .retryFailed).calls.last?.image)
        XCTAssertEqual(env.server.hits("/flaky.png"), 2)
        XCTAssertTrue(env.manager.failedURLs.isEmpty, "success with RetryFailed clears the entry")
    }

    /// Parity: FAQ-17 — the interview trap: in 4.4.8 a 404 is NOT "failed". The operation cancels a response
    /// with status >= 400, the error is NSURLErrorCancelled, and cancelled never blacklists (unless a manager
    /// delegate's `shouldBlockFailedURL` says so), so the next load asks the server again. (4.0–4.2 blacklisted
    /// the 404; 5.x reports InvalidDownloadStatusCode, not blocked.)
    func test_FAQ17_a404IsNotBlacklistedIn448() {
        env.server.route("/gone.png", .status(404))
        let url = env.server.url("/gone.png")
        let first = env.load(url).calls.last
        XCTAssertEqual(first?.errorCode, NSURLErrorCancelled, "the response was cancelled")
        XCTAssertTrue(first?.error?.localizedDescription.contains("HTTP 404") ?? false)
        XCTAssertTrue(env.manager.failedURLs.isEmpty)
        XCTAssertEqual(env.load(url).calls.last?.errorCode, NSURLErrorCancelled, "asked again, not refused")
        XCTAssertEqual(env.server.hits("/gone.png"), 2)
    }

    /// Parity: FAQ-17 — a timeout is the network's fault: the URL stays off the list and is tried again (no
    /// manager delegate decides otherwise).
    func test_FAQ17_timeoutDoesNotBlacklist() {
        env.downloader.downloadTimeout = 0.5
        env.server.route("/slow.png", .stall)
        let url = env.server.url("/slow.png")
        XCTAssertEqual(env.load(url).calls.last?.errorCode, NSURLErrorTimedOut)
        XCTAssertTrue(env.manager.failedURLs.isEmpty)
        XCTAssertEqual(env.load(url).calls.last?.errorCode, NSURLErrorTimedOut)
        XCTAssertEqual(env.server.hits("/slow.png"), 2, "tried again")
    }
}
