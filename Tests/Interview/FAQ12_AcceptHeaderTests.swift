import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// Proves FAQ-12: the card is `Docs/knowledge/faq/FAQ-12.json` (question, answer, citations; `sdport faq 12` prints
/// it).
///
/// Reads the downloader's default Accept header and checks that a request to a loopback server carries it.
final class FAQ12_AcceptHeaderTests: XCTestCase {
    /// Parity: FAQ-12 — the default header (4.4.8's when built with `SD_WEBP`, e.g. the WebP subspec; a plain
    /// pod sends `image/*;q=0.8`), and the server receives it.
    func test_FAQ12_acceptHeaderReachesTheServer() throws {
        let server = SDPortTestServer()
        server.route("/a.webp", .file(TestFixtures.url("lossy.webp"), contentType: "image/webp"))
        try server.start()
        defer { server.stop() }
        let downloader = SDWebImageDownloader(sessionConfiguration: nil)
        XCTAssertEqual(downloader.value(forHTTPHeaderField: "Accept"), "image/webp,image/*;q=0.8")

        let done = expectation(description: "download")
        let recorder = DownloadRecorder { done.fulfill() }
        downloader.downloadImage(with: server.url("/a.webp"), options: [], progress: nil, completed: recorder.completed)
        wait(for: [done], timeout: 10)
        XCTAssertEqual(server.requests("/a.webp").first?.header("Accept"), "image/webp,image/*;q=0.8")
        XCTAssertEqual(recorder.final?.image?.sd_imageFormat, .webp)
    }
}
