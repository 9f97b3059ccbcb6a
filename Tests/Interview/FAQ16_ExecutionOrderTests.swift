import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// Proves FAQ-16: the card is `Docs/knowledge/faq/FAQ-16.json` (question, answer, citations; `sdport faq 16` prints
/// it).
///
/// Queues three downloads on a suspended downloader that runs one at a time against a loopback server, resumes it, and
/// checks the order in which the requests arrive: as asked by default, newest first with `.lifo`.
final class FAQ16_ExecutionOrderTests: XCTestCase {
    /// Queues three downloads on a suspended downloader that runs one at a time, resumes it, and returns the
    /// order in which the requests reached the server.
    private func serverOrder(_ order: SDWebImageDownloaderExecutionOrder) throws -> [String] {
        let server = SDPortTestServer()
        let paths = ["/first.jpg", "/second.jpg", "/third.jpg"]
        for path in paths { server.route(path, .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg")) }
        try server.start()
        defer { server.stop() }
        let arrival = Locked<[String]>([])
        let downloader = SDWebImageDownloader(sessionConfiguration: nil)
        downloader.executionOrder = order
        downloader.maxConcurrentDownloads = 1
        downloader.setSuspended(true)
        var expectations: [XCTestExpectation] = []
        for path in paths {
            let done = expectation(description: path)
            expectations.append(done)
            // With one download at a time, the response arrives before the next request is sent.
            downloader.downloadImage(
                with: server.url(path), options: [],
                progress: { received, expected, _ in
                    if received == 0 && expected > 0 { arrival.update { $0.append(path) } }
                },
                completed: { _, _, _, finished in if finished { done.fulfill() } })
        }
        downloader.setSuspended(false)
        wait(for: expectations, timeout: 20)
        XCTAssertEqual(server.maxConcurrentRequests, 1)
        XCTAssertEqual(paths.map { server.hits($0) }, [1, 1, 1])
        return arrival.value
    }

    /// Parity: FAQ-16 — FIFO is the default and runs in the order asked.
    func test_FAQ16_fifoIsTheDefault() throws {
        XCTAssertEqual(SDWebImageDownloader(sessionConfiguration: nil).executionOrder, .fifo)
        XCTAssertEqual(try serverOrder(.fifo), ["/first.jpg", "/second.jpg", "/third.jpg"])
    }

    /// Parity: FAQ-16 — LIFO runs the newest first.
    func test_FAQ16_lifoRunsTheNewestFirst() throws {
        XCTAssertEqual(try serverOrder(.lifo), ["/third.jpg", "/second.jpg", "/first.jpg"])
    }
}
