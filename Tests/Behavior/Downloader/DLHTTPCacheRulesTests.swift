import Foundation
import XCTest

@testable import SDPort

/// The HTTP caching rules the port applies for `useProtocolCachePolicy` (FAQ-09), on stored responses built
/// by hand with fixed dates, so every rule is checked without waiting.
final class DLHTTPCacheRulesTests: XCTestCase {
    private let url = URL(string: "http://127.0.0.1/a.jpg")!
    private let receivedAt = Date(timeIntervalSince1970: 1_700_000_000)

    private func stored(_ headers: [String: String], received: Date? = nil) -> CachedURLResponse {
        let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)!
        let cached = CachedURLResponse(
            response: response, data: Data([1, 2, 3]), userInfo: nil, storagePolicy: .allowed)
        return SDWebImageHTTPCacheRules.stamped(cached, now: received ?? receivedAt)
    }

    private func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// Parity: FAQ-09 — max-age: fresh until that many seconds after it was received.
    func test_FAQ09_maxAgeFreshness() {
        let cached = stored(["Cache-Control": "public, max-age=60"])
        XCTAssertTrue(SDWebImageHTTPCacheRules.isFresh(cached, now: receivedAt.addingTimeInterval(59)))
        XCTAssertFalse(SDWebImageHTTPCacheRules.isFresh(cached, now: receivedAt.addingTimeInterval(61)))
    }

    /// Parity: FAQ-09 — Expires minus Date, when there is no max-age; no-cache is never fresh.
    func test_FAQ09_expiresAndNoCache() {
        let withExpires = stored([
            "Date": httpDate(receivedAt), "Expires": httpDate(receivedAt.addingTimeInterval(100)),
        ])
        XCTAssertTrue(SDWebImageHTTPCacheRules.isFresh(withExpires, now: receivedAt.addingTimeInterval(99)))
        XCTAssertFalse(SDWebImageHTTPCacheRules.isFresh(withExpires, now: receivedAt.addingTimeInterval(101)))
        XCTAssertFalse(
            SDWebImageHTTPCacheRules.isFresh(
                stored(["Cache-Control": "no-cache, max-age=600"]),
                now: receivedAt))
        XCTAssertFalse(
            SDWebImageHTTPCacheRules.isFresh(stored([:]), now: receivedAt.addingTimeInterval(1)),
            "no freshness information: stale")
    }

    /// Parity: FAQ-09 — heuristic freshness: a tenth of the time since Last-Modified.
    func test_FAQ09_lastModifiedHeuristic() {
        let cached = stored([
            "Date": httpDate(receivedAt), "Last-Modified": httpDate(receivedAt.addingTimeInterval(-1000)),
        ])
        XCTAssertTrue(SDWebImageHTTPCacheRules.isFresh(cached, now: receivedAt.addingTimeInterval(99)))
        XCTAssertFalse(SDWebImageHTTPCacheRules.isFresh(cached, now: receivedAt.addingTimeInterval(101)))
    }

    /// Parity: FAQ-09 — validators become If-None-Match / If-Modified-Since.
    func test_FAQ09_validators() {
        let modified = httpDate(receivedAt)
        let headers = SDWebImageHTTPCacheRules.validators(for: stored(["ETag": "\"v7\"", "Last-Modified": modified]))
        XCTAssertEqual(headers["If-None-Match"], "\"v7\"")
        XCTAssertEqual(headers["If-Modified-Since"], modified)
        XCTAssertTrue(SDWebImageHTTPCacheRules.validators(for: stored(["Cache-Control": "max-age=1"])).isEmpty)
    }

    /// Parity: FAQ-09 — a 304 refreshes the stored headers (not the framing ones), keeps the body and the status,
    /// and restarts the freshness clock.
    func test_FAQ09_notModifiedRefreshesTheStoredResponse() throws {
        let cached = stored([
            "ETag": "\"v1\"", "Cache-Control": "max-age=10", "Content-Length": "3", "Content-Type": "image/jpeg",
        ])
        let notModified = HTTPURLResponse(
            url: url, statusCode: 304, httpVersion: "HTTP/1.1",
            headerFields: ["Cache-Control": "max-age=500", "Content-Length": "0"])!
        let later = receivedAt.addingTimeInterval(400)
        let refreshed = SDWebImageHTTPCacheRules.refreshed(cached, with: notModified, now: later)
        let response = try XCTUnwrap(refreshed.response as? HTTPURLResponse)
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.value(forHTTPHeaderField: "Cache-Control"), "max-age=500")
        XCTAssertEqual(response.value(forHTTPHeaderField: "Content-Length"), "3")
        XCTAssertEqual(response.value(forHTTPHeaderField: "ETag"), "\"v1\"")
        XCTAssertEqual(refreshed.data, Data([1, 2, 3]))
        XCTAssertTrue(SDWebImageHTTPCacheRules.isFresh(refreshed, now: later.addingTimeInterval(499)))
    }

    /// Parity: OP-08 — only 200s without no-store may be stored.
    func test_OP08_storability() {
        let request = URLRequest(url: url)
        let ok = HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: [:])!
        let noStore = HTTPURLResponse(
            url: url, statusCode: 200, httpVersion: nil, headerFields: ["Cache-Control": "no-store"])!
        let partial = HTTPURLResponse(url: url, statusCode: 206, httpVersion: nil, headerFields: [:])!
        XCTAssertTrue(SDWebImageHTTPCacheRules.isStorable(ok, request: request))
        XCTAssertFalse(SDWebImageHTTPCacheRules.isStorable(noStore, request: request))
        XCTAssertFalse(SDWebImageHTTPCacheRules.isStorable(partial, request: request))
    }
}
