import Foundation
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// The loopback test server (`SDPortTestServer`) exercised through a real client, the curl CLI. This is the
/// port's test infrastructure (the original's tests use the real network), so these tests carry no parity ID.
/// Each test starts its own server; `tearDown` stops it.
final class TestServerTests: XCTestCase {
    private var server: SDPortTestServer!

    override func setUp() {
        server = SDPortTestServer()
    }

    override func tearDown() {
        server.stop()
        server = nil
    }

    private func curl(_ path: String, _ options: [String] = []) throws -> TestServerCurl.Result {
        try TestServerCurl.run(options + [server.url(path).absoluteString])
    }

    /// Polls `condition` until it holds or `timeout` passes (for state that changes on the server's loops).
    private func waitUntil(_ what: String, timeout: TimeInterval = 10, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() && Date() < deadline {
            RunLoop.current.run(until: Date().addingTimeInterval(0.01))
        }
        XCTAssertTrue(condition(), "timed out waiting until \(what)")
    }

    /// Starts curl in the background (its own ceiling 20 s); `wait(deadline:)` ends it.
    private func curlInBackground(_ path: String, _ options: [String] = []) throws -> ChildProcess {
        try TestServerCurl.background(options + ["--max-time", "20", server.url(path).absoluteString])
    }

    // MARK: Serving

    func testServesBytesWithContentTypeAndRecordsTheRequest() throws {
        server.route("/a.jpg", .data(Data("hello".utf8), contentType: "image/jpeg"))
        try server.start()
        XCTAssertGreaterThan(server.port, 0)
        XCTAssertEqual(server.baseURL.absoluteString, "http://127.0.0.1:\(server.port)")

        let result = try curl("/a.jpg?size=2", ["-H", "X-Probe: one"])
        XCTAssertEqual(result.exitCode, 0)
        XCTAssertEqual(result.statusCode, 200)
        XCTAssertEqual(result.bodyText, "hello")
        XCTAssertEqual(result.header("Content-Type"), "image/jpeg")
        XCTAssertEqual(result.header("Content-Length"), "5")

        XCTAssertEqual(server.hits("/a.jpg"), 1, "the query is ignored for counting")
        XCTAssertEqual(server.hits("/a.jpg?other=1"), 1, "a query in the asked path is ignored too")
        XCTAssertEqual(server.totalHits, 1)
        let recorded = try XCTUnwrap(server.requests("/a.jpg").first)
        XCTAssertEqual(recorded.method, "GET")
        XCTAssertEqual(recorded.path, "/a.jpg?size=2", "the recorded path keeps the query")
        XCTAssertEqual(recorded.header("x-probe"), "one", "header lookup is case-insensitive")
        XCTAssertNil(recorded.header("X-Absent"))
    }

    func testUnknownPathIs404AndStatusRoutesAnswerTheirCode() throws {
        server.route("/boom", .status(500, body: Data("boom".utf8)))
        server.route("/empty", .data(Data(), contentType: "image/png", status: 200))
        try server.start()

        let missing = try curl("/nothing-here")
        XCTAssertEqual(missing.statusCode, 404)
        XCTAssertEqual(server.hits("/nothing-here"), 1, "404s are counted too")

        let boom = try curl("/boom")
        XCTAssertEqual(boom.statusCode, 500)
        XCTAssertEqual(boom.bodyText, "boom")

        let empty = try curl("/empty")
        XCTAssertEqual(empty.statusCode, 200)
        XCTAssertEqual(empty.header("Content-Length"), "0")
        XCTAssertTrue(empty.body.isEmpty)
    }

    func testHeadRequestGetsTheHeadWithoutBody() throws {
        server.route("/a.png", .data(Data(repeating: 7, count: 100), contentType: "image/png"))
        try server.start()
        let result = try curl("/a.png", ["-I"])
        XCTAssertEqual(result.exitCode, 0)
        XCTAssertEqual(result.statusCode, 200)
        XCTAssertEqual(result.header("Content-Length"), "100")
        XCTAssertEqual(server.requests("/a.png").first?.method, "HEAD")
    }

    func testFileRouteIsReadAtRequestTime() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("pic.gif")
        try Data("first".utf8).write(to: file)
        server.route("/pic", .file(file))
        server.route("/typed", .file(file, contentType: "image/webp"))
        try server.start()

        let first = try curl("/pic")
        XCTAssertEqual(first.bodyText, "first")
        XCTAssertEqual(first.header("Content-Type"), "image/gif", "content type from the extension")
        XCTAssertEqual(try curl("/typed").header("Content-Type"), "image/webp")

        try Data("second".utf8).write(to: file)
        XCTAssertEqual(try curl("/pic").bodyText, "second")

        try FileManager.default.removeItem(at: file)
        XCTAssertEqual(try curl("/pic").statusCode, 404)
    }

    func testServeDirectoryPicksContentTypeFromExtension() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let files = [
            "a.jpg": "image/jpeg", "b.JPEG": "image/jpeg", "c.png": "image/png", "d.gif": "image/gif",
            "e.webp": "image/webp", "f.bin": "application/octet-stream",
        ]
        for name in files.keys { try Data(name.utf8).write(to: folder.url.appendingPathComponent(name)) }
        let nested = folder.url.appendingPathComponent("sub dir", isDirectory: true)
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        try Data("nested".utf8).write(to: nested.appendingPathComponent("g.png"))
        server.serveDirectory(folder.url, under: "/img")
        server.route("/img/a.jpg", .data(Data("exact".utf8), contentType: "text/plain"))
        try server.start()

        for (name, type) in files where name != "a.jpg" {
            let result = try curl("/img/\(name)")
            XCTAssertEqual(result.statusCode, 200, name)
            XCTAssertEqual(result.bodyText, name)
            XCTAssertEqual(result.header("Content-Type"), type, name)
        }
        XCTAssertEqual(try curl("/img/a.jpg").bodyText, "exact", "an exact route wins over the directory")
        XCTAssertEqual(try curl("/img/sub%20dir/g.png").bodyText, "nested")
        XCTAssertEqual(try curl("/img/missing.jpg").statusCode, 404)
        XCTAssertEqual(try curl("/img/sub%20dir").statusCode, 404, "a folder is not a file")
        XCTAssertEqual(try curl("/img/../img/c.png", ["--path-as-is"]).statusCode, 404, "no escaping the folder")
        XCTAssertEqual(try curl("/c.png").statusCode, 404, "only under the prefix")
    }

    // MARK: HTTP caching headers

    func testETagAnswers304WithEmptyBodyOnMatchingIfNoneMatch() throws {
        server.route(
            "/e.jpg",
            .data(Data("image".utf8), contentType: "image/jpeg").etag("\"v1\"")
                .cacheControl("max-age=60"))
        try server.start()

        let plain = try curl("/e.jpg")
        XCTAssertEqual(plain.statusCode, 200)
        XCTAssertEqual(plain.header("ETag"), "\"v1\"")
        XCTAssertEqual(plain.header("Cache-Control"), "max-age=60")

        let matching = try curl("/e.jpg", ["-H", "If-None-Match: \"v1\""])
        XCTAssertEqual(matching.statusCode, 304)
        XCTAssertTrue(matching.body.isEmpty)
        XCTAssertEqual(matching.header("ETag"), "\"v1\"")
        XCTAssertEqual(matching.header("Cache-Control"), "max-age=60")

        let other = try curl("/e.jpg", ["-H", "If-None-Match: \"v0\""])
        XCTAssertEqual(other.statusCode, 200)
        XCTAssertEqual(other.bodyText, "image")
        XCTAssertEqual(server.requests("/e.jpg")[1].header("If-None-Match"), "\"v1\"")
    }

    func testLastModifiedAnswers304WhenNotModifiedSince() throws {
        let modified = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT
        server.route("/m.png", .data(Data("png".utf8), contentType: "image/png").lastModified(modified))
        try server.start()

        let plain = try curl("/m.png")
        XCTAssertEqual(plain.header("Last-Modified"), "Tue, 14 Nov 2023 22:13:20 GMT")

        let same = try curl("/m.png", ["-H", "If-Modified-Since: Tue, 14 Nov 2023 22:13:20 GMT"])
        XCTAssertEqual(same.statusCode, 304)
        XCTAssertTrue(same.body.isEmpty)
        let newer = try curl("/m.png", ["-H", "If-Modified-Since: Wed, 15 Nov 2023 00:00:00 GMT"])
        XCTAssertEqual(newer.statusCode, 304)
        let older = try curl("/m.png", ["-H", "If-Modified-Since: Mon, 13 Nov 2023 00:00:00 GMT"])
        XCTAssertEqual(older.statusCode, 200)
        XCTAssertEqual(older.bodyText, "png")
    }

    // MARK: Framing and faults

    func testChunkedBodyHasNoContentLength() throws {
        let body = Data((0..<3000).map { UInt8($0 % 251) })
        server.route("/c", .data(body).chunked())
        try server.start()
        let result = try curl("/c")
        XCTAssertEqual(result.exitCode, 0)
        XCTAssertEqual(result.body, body)
        XCTAssertEqual(result.header("Transfer-Encoding"), "chunked")
        XCTAssertNil(result.header("Content-Length"))
    }

    func testWithoutContentLengthBodyEndsWithTheConnection() throws {
        let body = Data(repeating: 0xAB, count: 200_000)
        server.route("/n", .data(body).withoutContentLength())
        try server.start()
        let result = try curl("/n")
        XCTAssertEqual(result.exitCode, 0)
        XCTAssertEqual(result.body, body, "every byte arrives before the close")
        XCTAssertNil(result.header("Content-Length"))
        XCTAssertNil(result.header("Transfer-Encoding"))
        XCTAssertEqual(result.header("Connection"), "close")
    }

    func testCloseAfterBytesTruncatesTheDeclaredBody() throws {
        let body = Data((0..<100_000).map { UInt8($0 % 256) })
        server.route("/t.jpg", .data(body, contentType: "image/jpeg").closeAfter(bytes: 60_000))
        try server.start()
        let result = try curl("/t.jpg")
        XCTAssertEqual(result.exitCode, 18, "curl: partial file (body shorter than Content-Length)")
        XCTAssertEqual(result.header("Content-Length"), "100000")
        XCTAssertEqual(result.body, body.prefix(60_000))
        waitUntil("the truncated request is no longer in flight") { server.requestsInFlight == 0 }
    }

    func testTrickleSendsTheFirstPieceAtOnceAndTheRestLater() throws {
        server.route("/slow", .data(Data("abcdefgh".utf8)).trickle(chunkSize: 4, interval: 30))
        let body = Data((0..<50).map { UInt8($0) })
        server.route("/fast", .data(body).trickle(chunkSize: 7, interval: 0.005))
        server.route("/fast-chunked", .data(body).chunked().trickle(chunkSize: 7, interval: 0.005))
        try server.start()

        let slow = try curl("/slow", ["--max-time", "1"])
        XCTAssertEqual(slow.exitCode, 28, "curl timed out waiting for the second piece")
        XCTAssertEqual(slow.bodyText, "abcd")
        XCTAssertEqual(slow.header("Content-Length"), "8")

        let fast = try curl("/fast")
        XCTAssertEqual(fast.exitCode, 0)
        XCTAssertEqual(fast.body, body)
        let chunked = try curl("/fast-chunked")
        XCTAssertEqual(chunked.exitCode, 0)
        XCTAssertEqual(chunked.body, body)
    }

    func testDelayHoldsBackTheHead() throws {
        server.route("/late", .data(Data("late".utf8)).delay(30))
        server.route("/soon", .data(Data("soon".utf8)).delay(0.1))
        try server.start()

        let late = try curl("/late", ["--max-time", "0.5"])
        XCTAssertEqual(late.exitCode, 28, "no head within the client's timeout")
        XCTAssertEqual(late.statusCode, 0)
        XCTAssertEqual(server.hits("/late"), 1)

        let soon = try curl("/soon")
        XCTAssertEqual(soon.statusCode, 200)
        XCTAssertEqual(soon.bodyText, "soon")
    }

    func testHeldRouteAnswersOnceItsGateOpens() throws {
        let gate = SDPortTestGate()
        server.route("/held", .data(Data("held".utf8)).held(by: gate))
        try server.start()
        let first = try curlInBackground("/held")
        let second = try curlInBackground("/held")
        waitUntil("both held requests arrived") { server.hits("/held") == 2 }
        XCTAssertEqual(server.requestsInFlight, 2, "nothing answered while the gate is shut")
        XCTAssertTrue(first.isRunning && second.isRunning)
        gate.open()
        XCTAssertEqual(try first.wait(deadline: 10).code, 0)
        XCTAssertEqual(try second.wait(deadline: 10).code, 0)
        XCTAssertEqual(server.requestsInFlight, 0)
        XCTAssertEqual(try curl("/held").bodyText, "held", "an open gate lets the next one through at once")
    }

    func testStallNeverAnswersAndStopClosesTheConnection() throws {
        server.route("/stall", .stall)
        try server.start()
        let process = try curlInBackground("/stall")
        waitUntil("the stalled request arrived") { server.hits("/stall") == 1 }
        XCTAssertEqual(server.requestsInFlight, 1)

        server.stop()
        XCTAssertEqual(try process.wait(deadline: 10).code, 52, "curl: empty reply, the server closed the connection")
        XCTAssertEqual(server.requestsInFlight, 0)
        XCTAssertEqual(server.port, 0)
        server.stop()  // idempotent
    }

    func testResetDropsTheConnectionWithoutAnswer() throws {
        server.route("/reset", .reset)
        try server.start()
        let result = try curl("/reset")
        XCTAssertEqual(result.exitCode, 56, "curl: connection reset by peer while receiving")
        XCTAssertEqual(result.statusCode, 0)
        XCTAssertEqual(server.hits("/reset"), 1)
        waitUntil("the reset request is no longer in flight") { server.requestsInFlight == 0 }
    }

    func testRedirectIsFollowedAndALoopNeverEnds() throws {
        server.route("/old.jpg", .redirect(to: "/new.jpg"))
        server.route("/new.jpg", .data(Data("new".utf8), contentType: "image/jpeg"))
        server.route("/a", .redirect(to: "/b", status: 301))
        server.route("/b", .redirect(to: server.url("/a").path))
        try server.start()

        let moved = try curl("/old.jpg", ["-L"])
        XCTAssertEqual(moved.statusCode, 200)
        XCTAssertEqual(moved.bodyText, "new")
        XCTAssertEqual(server.hits("/old.jpg"), 1)
        XCTAssertEqual(server.hits("/new.jpg"), 1)

        let notFollowed = try curl("/a")
        XCTAssertEqual(notFollowed.statusCode, 301)
        XCTAssertEqual(notFollowed.header("Location"), "/b")

        let loop = try curl("/a", ["-L", "--max-redirs", "4"])
        XCTAssertEqual(loop.exitCode, 47, "curl: too many redirects")
        XCTAssertGreaterThanOrEqual(server.hits("/b"), 2)
        XCTAssertGreaterThanOrEqual(server.hits("/a"), 3)
    }

    func testBasicAuthRequiresTheRightCredentials() throws {
        server.route(
            "/private.png",
            .data(Data("secret".utf8), contentType: "image/png")
                .requireBasicAuth(user: "alice", password: "s3cret"))
        try server.start()

        let anonymous = try curl("/private.png")
        XCTAssertEqual(anonymous.statusCode, 401)
        XCTAssertEqual(anonymous.header("WWW-Authenticate"), "Basic realm=\"SDPortTestServer\"")
        XCTAssertEqual(try curl("/private.png", ["-u", "alice:wrong"]).statusCode, 401)

        let allowed = try curl("/private.png", ["-u", "alice:s3cret"])
        XCTAssertEqual(allowed.statusCode, 200)
        XCTAssertEqual(allowed.bodyText, "secret")
        XCTAssertEqual(server.requests("/private.png").last?.header("Authorization"), "Basic YWxpY2U6czNjcmV0")
    }

    func testSetCookieAndExtraHeaders() throws {
        server.route(
            "/cookie",
            .data(Data("c".utf8)).setCookie("session=abc; Path=/").setCookie("theme=dark")
                .headers(["X-Extra": "1", "Content-Type": "image/jpeg"]))
        try server.start()
        let result = try curl("/cookie")
        XCTAssertEqual(result.headerValues("Set-Cookie"), ["session=abc; Path=/", "theme=dark"])
        XCTAssertEqual(result.header("X-Extra"), "1")
        XCTAssertEqual(result.header("Content-Type"), "image/jpeg", "extra headers replace the server's own")

        _ = try curl("/cookie", ["-b", "session=abc"])
        XCTAssertEqual(server.requests("/cookie").last?.header("Cookie"), "session=abc")
    }

    // MARK: Connections and concurrency

    func testKeepAliveServesSeveralRequestsOnOneConnection() throws {
        server.route("/k1", .data(Data("1".utf8)))
        server.route("/k2", .data(Data("2".utf8)).delay(0.05))
        try server.start()
        let result = try TestServerCurl.run([
            server.url("/k1").absoluteString,
            "-o", "/dev/null", server.url("/k2").absoluteString,
            "-o", "/dev/null", server.url("/k1").absoluteString,
        ])
        XCTAssertEqual(result.exitCode, 0)
        XCTAssertEqual(result.connects, 1, "curl reused its connection")
        XCTAssertEqual(server.acceptedConnections, 1)
        XCTAssertEqual(server.hits("/k1"), 2)
        XCTAssertEqual(server.totalHits, 3)
        XCTAssertEqual(server.maxConcurrentRequests, 1, "one request at a time on one connection")
        XCTAssertEqual(server.requestsInFlight, 0)
    }

    func testMaxConcurrentRequestsCountsOverlappingRequests() throws {
        server.route("/hang", .stall)
        server.route("/ok", .data(Data("ok".utf8)))
        try server.start()
        XCTAssertEqual(try curl("/ok").statusCode, 200)
        XCTAssertEqual(server.maxConcurrentRequests, 1)

        var running: [ChildProcess] = []
        for _ in 0..<3 { running.append(try curlInBackground("/hang")) }
        waitUntil("three stalled requests arrived") { server.hits("/hang") == 3 }
        XCTAssertEqual(server.requestsInFlight, 3)
        XCTAssertEqual(server.maxConcurrentRequests, 3)

        server.resetCounters()
        XCTAssertEqual(server.totalHits, 0)
        XCTAssertEqual(server.hits("/hang"), 0)
        XCTAssertTrue(server.requests("/hang").isEmpty)
        XCTAssertEqual(server.maxConcurrentRequests, 3, "the maximum restarts from the requests still in flight")

        server.stop()
        for process in running { try process.wait(deadline: 10) }
        XCTAssertEqual(server.requestsInFlight, 0)
    }

    func testManyServersRunSideBySideAndRestart() throws {
        let others = (0..<3).map { _ in SDPortTestServer() }
        defer { for other in others { other.stop() } }
        for (index, other) in others.enumerated() {
            other.route("/who", .data(Data("server \(index)".utf8)))
            try other.start()
        }
        XCTAssertEqual(Set(others.map(\.port)).count, 3, "each server has its own port")
        for (index, other) in others.enumerated() {
            XCTAssertEqual(try TestServerCurl.run([other.url("/who").absoluteString]).bodyText, "server \(index)")
        }

        let first = others[0]
        let oldURL = first.url("/who")
        first.stop()
        XCTAssertNotEqual(try TestServerCurl.run([oldURL.absoluteString]).exitCode, 0, "nothing listens any more")
        try first.start()
        XCTAssertEqual(
            try TestServerCurl.run([first.url("/who").absoluteString]).bodyText, "server 0",
            "routes survive a restart")
    }

    // MARK: TLS

    func testHTTPSWithSelfSignedCertificate() throws {
        let tls = try SDPortTestTLS.selfSigned()
        XCTAssertTrue(FileManager.default.fileExists(atPath: tls.certificatePath))
        XCTAssertTrue(FileManager.default.fileExists(atPath: tls.privateKeyPath))
        let secure = SDPortTestServer(tls: tls)
        defer { secure.stop() }
        secure.route("/s.jpg", .data(Data("tls".utf8), contentType: "image/jpeg"))
        try secure.start()
        XCTAssertEqual(secure.baseURL.scheme, "https")
        let url = secure.url("/s.jpg").absoluteString

        let verifying = try TestServerCurl.run([url])
        XCTAssertEqual(verifying.exitCode, 60, "curl refuses a certificate it does not trust")
        XCTAssertEqual(secure.hits("/s.jpg"), 0, "no request got through the refused handshake")

        let insecure = try TestServerCurl.run(["-k", url])
        XCTAssertEqual(insecure.exitCode, 0)
        XCTAssertEqual(insecure.bodyText, "tls")

        let trusting = try TestServerCurl.run(["--cacert", tls.certificatePath, url])
        XCTAssertEqual(trusting.exitCode, 0, "the certificate is valid for 127.0.0.1 once trusted")
        XCTAssertEqual(trusting.bodyText, "tls")
        XCTAssertEqual(secure.hits("/s.jpg"), 2)
    }
}
