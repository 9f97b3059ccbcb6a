import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// TLS against a loopback HTTPS server with a self-signed certificate the test makes (4.4.8
/// `SDWebImageDownloaderOperation.m` `URLSession:task:didReceiveChallenge:`, server-trust branch).
final class DLDownloaderTLSTests: XCTestCase {
    private var server: SDPortTestServer!
    private var downloader: SDWebImageDownloader!

    override func setUpWithError() throws {
        server = SDPortTestServer(tls: try SDPortTestTLS.selfSigned())
        server.route("/a.jpg", .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg"))
        try server.start()
        downloader = SDWebImageDownloader(sessionConfiguration: nil)
    }

    override func tearDown() {
        downloader = nil
        server.stop()
        server = nil  // XCTest keeps test objects to the end; LeakSanitizer flagged live servers
    }

    private func download(options: SDWebImageDownloaderOptions) -> DownloadRecorder {
        let done = expectation(description: "https download")
        let recorder = DownloadRecorder { done.fulfill() }
        downloader.downloadImage(
            with: server.url("/a.jpg"), options: options, progress: nil, completed: recorder.completed)
        wait(for: [done], timeout: 10)
        return recorder
    }

    /// Parity: DL-14, OP-07 — by default an untrusted certificate fails with NSURLErrorServerCertificateUntrusted
    /// (-1202) and a message that says so; nothing reaches the HTTP layer.
    func test_DL14_untrustedCertificateFailsByDefault() {
        XCTAssertEqual(server.baseURL.scheme, "https")
        let result = download(options: [])
        XCTAssertEqual(result.finalCompletions.count, 1)
        XCTAssertEqual(result.final?.error?.domain, NSURLErrorDomain)
        XCTAssertEqual(result.final?.error?.code, NSURLErrorServerCertificateUntrusted)
        XCTAssertTrue(
            result.final?.error?.localizedDescription.contains("certificate") ?? false,
            result.final?.error?.localizedDescription ?? "")
        XCTAssertNil(result.final?.image)
        XCTAssertEqual(server.hits("/a.jpg"), 0)
    }

    /// Parity: DL-14, OP-07 — with `AllowInvalidSSLCertificates` the same server is trusted and the image arrives.
    func test_DL14_allowInvalidSSLCertificatesSucceeds() {
        let result = download(options: .allowInvalidSSLCertificates)
        XCTAssertNil(result.final?.error)
        XCTAssertEqual(result.final?.image?.pixelWidth, 256)
        XCTAssertEqual(server.hits("/a.jpg"), 1)
    }
}
