import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// Proves FAQ-17 (one download per URL): the card is `Docs/knowledge/faq/FAQ-17.json` (question, answer, citations;
/// `sdport faq 17` prints it).
///
/// Asks a downloader for one loopback URL 100 times and counts the requests the server saw and the completions with the
/// image; cancels some of the callers of a shared download and checks that the others still get it.
final class FAQ17_CoalescingTests: XCTestCase {
    /// Parity: FAQ-17 — 100 requests for one URL: one request reaches the server, 100 completions with the image.
    func test_FAQ17_hundredRequestsForOneURLHitTheServerOnce() throws {
        let server = SDPortTestServer()
        server.route("/one.jpg", .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg").delay(1))
        try server.start()
        defer { server.stop() }
        let downloader = SDWebImageDownloader(sessionConfiguration: nil)
        // The first request goes out and waits for the server's answer; the other 99 ask meanwhile.
        var expectations: [XCTestExpectation] = []
        var recorders: [DownloadRecorder] = []
        var operations = Set<ObjectIdentifier>()
        for index in 0..<100 {
            let done = expectation(description: "caller \(index)")
            expectations.append(done)
            let recorder = DownloadRecorder { done.fulfill() }
            recorders.append(recorder)
            let token = downloader.downloadImage(
                with: server.url("/one.jpg"), options: [], progress: recorder.progress,
                completed: recorder.completed)
            if let operation = token?.downloadOperation { operations.insert(ObjectIdentifier(operation)) }
            if index == 0 {
                XCTAssertTrue(waitUntil { server.hits("/one.jpg") == 1 }, "the first request is in flight")
            }
        }
        XCTAssertEqual(operations.count, 1, "every caller joined the first operation")
        wait(for: expectations, timeout: 20)
        XCTAssertEqual(server.hits("/one.jpg"), 1)
        XCTAssertTrue(recorders.allSatisfy { $0.finalCompletions.count == 1 && $0.final?.image?.pixelWidth == 256 })
        XCTAssertTrue(waitUntil { downloader.runningURLCount == 0 }, "the finished operation left URLOperations")
    }

    /// Parity: FAQ-17 — cancelling some callers of a shared download leaves the rest; the others still get the
    /// image from the one request.
    func test_FAQ17_cancellingSomeCallersKeepsTheOthers() throws {
        let server = SDPortTestServer()
        server.route("/shared.jpg", .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg").delay(0.3))
        try server.start()
        defer { server.stop() }
        let downloader = SDWebImageDownloader(sessionConfiguration: nil)
        var kept: [(DownloadRecorder, XCTestExpectation)] = []
        var cancelled: [DownloadRecorder] = []
        // Suspended while the callers come and go, so the first caller's download (cancelled at once, being its
        // only caller) is gone before any request goes out: the server can only see the shared one.
        downloader.setSuspended(true)
        for index in 0..<10 {
            if index.isMultiple(of: 2) {
                let recorder = DownloadRecorder()
                let token = downloader.downloadImage(
                    with: server.url("/shared.jpg"), options: [], progress: nil,
                    completed: recorder.completed)
                downloader.cancel(token)
                cancelled.append(recorder)
            } else {
                let done = expectation(description: "caller \(index)")
                let recorder = DownloadRecorder { done.fulfill() }
                downloader.downloadImage(
                    with: server.url("/shared.jpg"), options: [], progress: nil,
                    completed: recorder.completed)
                kept.append((recorder, done))
            }
        }
        downloader.setSuspended(false)
        wait(for: kept.map(\.1), timeout: 20)
        XCTAssertTrue(kept.allSatisfy { $0.0.final?.image != nil })
        XCTAssertTrue(cancelled.allSatisfy { $0.completions.isEmpty })
        XCTAssertEqual(server.hits("/shared.jpg"), 1)
    }
}
