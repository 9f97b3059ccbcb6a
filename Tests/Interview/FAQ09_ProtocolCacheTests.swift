import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// Proves FAQ-09: the card is `Docs/knowledge/faq/FAQ-09.json` (question, answer, citations; `sdport faq 9` prints it).
///
/// Downloads from a loopback server that sends caching headers, with a protocol cache in a temporary directory: by
/// default every load reaches the server and nothing is stored; with `useNSURLCache` a fresh response is served from
/// the cache, a stale one is revalidated with `If-None-Match` or `If-Modified-Since` and a 304 is answered with the
/// stored image; with `ignoreCachedResponse` a response the cache answered completes with nothing.
final class FAQ09_ProtocolCacheTests: XCTestCase {
    private var env: DownloaderTestEnvironment!
    private var server: SDPortTestServer { env.server }
    private var downloader: SDWebImageDownloader { env.downloader }

    override func setUpWithError() throws {
        env = try DownloaderTestEnvironment(prefix: "faq09-urlcache") { server in
            let image = TestFixtures.url("baseline.jpg")
            server.route("/fresh.jpg", .file(image, contentType: "image/jpeg").cacheControl("max-age=600"))
            server.route("/etag.jpg", .file(image, contentType: "image/jpeg").cacheControl("no-cache").etag("\"v1\""))
            server.route(
                "/dated.jpg",
                .file(image, contentType: "image/jpeg").cacheControl("max-age=0")
                    .lastModified(Date(timeIntervalSince1970: 1_500_000_000)))
        }
    }

    override func tearDown() {
        env.tearDown()
        env = nil
    }

    private func download(_ path: String, options: SDWebImageDownloaderOptions = []) -> DownloadRecorder {
        downloadAndWait(downloader, server.url(path), options: options, timeout: 10)
    }

    /// Parity: FAQ-09 — by default every download goes to the server and nothing is stored, even when the
    /// server allows caching.
    func test_FAQ09_defaultBypassesTheProtocolCache() {
        XCTAssertNotNil(download("/fresh.jpg").final?.image)
        XCTAssertNotNil(download("/fresh.jpg").final?.image)
        XCTAssertEqual(server.hits("/fresh.jpg"), 2)
        XCTAssertNil(downloader.urlCache?.cachedResponse(for: URLRequest(url: server.url("/fresh.jpg"))))

        // Nor is a stored response read: with a fresh copy in the protocol cache (stored by a UseNSURLCache load),
        // a default download still asks the server (ReloadIgnoringLocalCacheData).
        XCTAssertNotNil(download("/fresh.jpg", options: .useNSURLCache).final?.image)
        XCTAssertNotNil(downloader.urlCache?.cachedResponse(for: URLRequest(url: server.url("/fresh.jpg"))))
        XCTAssertNotNil(download("/fresh.jpg").final?.image)
        XCTAssertEqual(server.hits("/fresh.jpg"), 4, "the default download ignored the stored response")
    }

    /// Parity: FAQ-09 — with `UseNSURLCache` a fresh stored response (max-age) is served without the network.
    func test_FAQ09_useNSURLCacheServesFreshResponsesFromTheCache() {
        XCTAssertNotNil(download("/fresh.jpg", options: .useNSURLCache).final?.image)
        let second = download("/fresh.jpg", options: .useNSURLCache)
        XCTAssertEqual(second.final?.image?.pixelWidth, 256)
        XCTAssertEqual(second.final?.data?.count, try TestFixtures.data("baseline.jpg").count)
        XCTAssertEqual(server.hits("/fresh.jpg"), 1, "the second download never reached the server")
    }

    /// Parity: FAQ-09 — a stale response with an ETag is revalidated with If-None-Match; the server's 304 is
    /// answered with the stored image.
    func test_FAQ09_staleResponseIsRevalidatedWithETag() {
        XCTAssertNotNil(download("/etag.jpg", options: .useNSURLCache).final?.image)
        let second = download("/etag.jpg", options: .useNSURLCache)
        XCTAssertNil(second.final?.error)
        XCTAssertEqual(second.final?.image?.pixelWidth, 256)
        let requests = server.requests("/etag.jpg")
        XCTAssertEqual(requests.count, 2)
        XCTAssertNil(requests[0].header("If-None-Match"))
        XCTAssertEqual(requests[1].header("If-None-Match"), "\"v1\"")
    }

    /// Parity: FAQ-09 — Last-Modified revalidates with If-Modified-Since.
    func test_FAQ09_staleResponseIsRevalidatedWithLastModified() {
        XCTAssertNotNil(download("/dated.jpg", options: .useNSURLCache).final?.image)
        let second = download("/dated.jpg", options: .useNSURLCache)
        XCTAssertEqual(second.final?.image?.pixelWidth, 256)
        let requests = server.requests("/dated.jpg")
        XCTAssertEqual(requests.count, 2)
        XCTAssertNotNil(requests[1].header("If-Modified-Since"))
    }

    /// Parity: FAQ-09 — with `IgnoreCachedResponse`, a response the protocol cache answered (fresh, or a 304)
    /// completes with (nil, nil, nil, finished = true). 4.4.8's test is that the bytes equal the ones the cache
    /// held when the operation started, so a 200 with the same bytes would complete the same way.
    func test_FAQ09_ignoreCachedResponseCompletesWithNothing() {
        for path in ["/fresh.jpg", "/etag.jpg"] {
            XCTAssertNotNil(download(path, options: .useNSURLCache).final?.image)
            let again = download(path, options: [.useNSURLCache, .ignoreCachedResponse])
            XCTAssertEqual(again.finalCompletions.count, 1, path)
            XCTAssertNil(again.final?.image, path)
            XCTAssertNil(again.final?.data, path)
            XCTAssertNil(again.final?.error, path)
        }
        XCTAssertEqual(server.hits("/fresh.jpg"), 1)
        XCTAssertEqual(server.hits("/etag.jpg"), 2)
    }
}
