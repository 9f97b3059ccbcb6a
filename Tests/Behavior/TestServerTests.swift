import Foundation
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// The loopback test server (`SDPortTestServer`) exercised through a real client, the curl CLI. This is the
/// port's test infrastructure (the original's tests use the real network), so these tests carry no parity ID.
final class TestServerTests: XCTestCase {
    private var server: SDPortTestServer!

    override func setUpWithError() throws {
        server = SDPortTestServer()
    }

    override func tearDown() {
        server.stop()
        server = nil
    }

    func testServesBytesWithContentTypeAndCountsHits() throws {
        server.route("/a.jpg", .data(Data("hello".utf8), contentType: "image/jpeg"))
        try server.start()
        XCTAssertGreaterThan(server.port, 0)

        let result = try TestServerCurl.run([server.url("/a.jpg?x=1").absoluteString])
        XCTAssertEqual(result.exitCode, 0)
        XCTAssertEqual(result.statusCode, 200)
        XCTAssertEqual(result.bodyText, "hello")
        XCTAssertEqual(result.header("Content-Type"), "image/jpeg")
        XCTAssertEqual(result.header("Content-Length"), "5")
        XCTAssertEqual(server.hits("/a.jpg"), 1)
        XCTAssertEqual(server.totalHits, 1)
        XCTAssertEqual(server.requests("/a.jpg").first?.path, "/a.jpg?x=1")
    }
}
