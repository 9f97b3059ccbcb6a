import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// Proves FAQ-02: the card is `Docs/knowledge/faq/FAQ-02.json` (question, answer, citations; `sdport faq 2` prints it).
///
/// Reads `maxConcurrentDownloads` and `downloadTimeout` on the shared and on a new downloader; sets the timeout to 0
/// and reads the request the operation was given; starts eight downloads against a loopback server that never answers
/// and counts how many requests reach it while the rest wait in the queue.
final class FAQ02_DownloaderDefaultsTests: XCTestCase {
    /// Parity: FAQ-02 — 6 concurrent downloads and 15 s, on `shared` and on a new downloader.
    func test_FAQ02_sixConcurrentDownloadsAndFifteenSeconds() {
        for downloader in [SDWebImageDownloader.shared, SDWebImageDownloader()] {
            XCTAssertEqual(downloader.maxConcurrentDownloads, 6)
            XCTAssertEqual(downloader.downloadTimeout, 15)
            XCTAssertEqual(downloader.sessionConfiguration.timeoutIntervalForRequest, 15)
        }
    }

    /// Parity: FAQ-02 — a timeout of 0 means 15 s on the request; the queue really runs six at a time: of
    /// eight downloads from a server that never answers, six reach it and two wait in the queue.
    func test_FAQ02_zeroTimeoutMeansFifteenAndSixRunAtOnce() throws {
        let server = SDPortTestServer()
        for index in 0..<8 { server.route("/stall\(index).jpg", .stall) }
        try server.start()
        defer { server.stop() }
        let downloader = SDWebImageDownloader(sessionConfiguration: nil)
        downloader.downloadTimeout = 0
        let recorders = (0..<8).map { _ in DownloadRecorder() }
        for (index, recorder) in recorders.enumerated() {
            downloader.downloadImage(
                with: server.url("/stall\(index).jpg"), options: [], progress: nil,
                completed: recorder.completed)
        }
        let operation = downloader.runningOperation(for: server.url("/stall0.jpg")) as? SDWebImageDownloaderOperation
        XCTAssertEqual(operation?.request?.timeoutInterval, 15)
        XCTAssertTrue(waitUntil { server.totalHits == 6 }, "six requests in flight")
        XCTAssertEqual(downloader.currentDownloadCount, 8, "two more wait in the queue")
        XCTAssertEqual(server.hits("/stall6.jpg") + server.hits("/stall7.jpg"), 0)
        downloader.cancelAllDownloads()
        XCTAssertTrue(waitUntil { downloader.currentDownloadCount == 0 })
        XCTAssertEqual(server.maxConcurrentRequests, 6, "never more than six")
        // The cancelled tasks' ends arrive on the session's queue; the test ends after them, not the process.
        downloader.invalidateSessionAndCancel(true)
        XCTAssertTrue(waitUntil { downloader.sessionTaskCount == 0 })
    }
}
