import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// FAQ-02 — What are the downloader's defaults: how many downloads at once, and how long until a timeout?
///
/// Answer: six concurrent downloads (`_downloadQueue.maxConcurrentOperationCount = 6` in
/// `-[SDWebImageDownloader initWithSessionConfiguration:]`, 4.4.8) and a 15-second timeout
/// (`_downloadTimeout = 15.0`); `createDownloaderOperationWithUrl:options:` treats a timeout of 0 as 15.
/// Port: `SDWebImageDownloader.maxConcurrentDownloads` and `downloadTimeout`; the timeout is an idle timeout,
/// as NSURLSession's is (no byte for that long fails the download with -1001).
final class FAQ02_DownloaderDefaultsTests: XCTestCase {
    /// Parity: FAQ-02 — 6 concurrent downloads and 15 s, on `shared` and on a new downloader.
    func test_FAQ02_sixConcurrentDownloadsAndFifteenSeconds() {
        for downloader in [SDWebImageDownloader.shared, SDWebImageDownloader()] {
            XCTAssertEqual(downloader.maxConcurrentDownloads, 6)
            XCTAssertEqual(downloader.downloadTimeout, 15)
            XCTAssertEqual(downloader.sessionConfiguration.timeoutIntervalForRequest, 15)
        }
    }

    /// Parity: FAQ-02 — a timeout of 0 means 15 s on the request; the queue really runs six at a time.
    func test_FAQ02_zeroTimeoutMeansFifteenAndSixRunAtOnce() throws {
        let server = SDPortTestServer()
        server.route("/slow.jpg", .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg").delay(0.3))
        try server.start()
        defer { server.stop() }
        let downloader = SDWebImageDownloader(sessionConfiguration: nil)
        downloader.downloadTimeout = 0
        downloader.setSuspended(true)
        var expectations: [XCTestExpectation] = []
        for index in 0..<8 {
            let done = expectation(description: "download \(index)")
            expectations.append(done)
            let recorder = DLDownloadRecorder { done.fulfill() }
            downloader.downloadImage(with: server.url("/slow.jpg?n=\(index)"), options: [], progress: nil,
                                     completed: recorder.completed)
        }
        let operation = downloader.runningOperation(for: server.url("/slow.jpg?n=0")) as? SDWebImageDownloaderOperation
        XCTAssertEqual(operation?.request?.timeoutInterval, 15)
        downloader.setSuspended(false)
        wait(for: expectations, timeout: 20)
        XCTAssertEqual(server.hits("/slow.jpg"), 8)
        XCTAssertEqual(server.maxConcurrentRequests, 6, "six in flight at once, never more")
    }
}
