import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// FAQ-12 — Which Accept header does the downloader send?
///
/// Answer: `Accept: image/webp,image/*;q=0.8` when WebP support is compiled in (`SD_WEBP`), else
/// `image/*;q=0.8` (`-[SDWebImageDownloader initWithSessionConfiguration:]`, 4.4.8). The port always has WebP
/// (libwebp), so it sends the first. 5.1+ sends `image/*,*/*;q=0.8`.
final class FAQ12_AcceptHeaderTests: XCTestCase {
    /// Parity: FAQ-12 — the default header, and the server receives it.
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
