import Foundation
import SDPortTestServer
import SDPortTestSupport
import XCTest

@testable import SDPort

/// The port's NSURLSession stand-in, `SDWebImageCurlSession` / `SDWebImageCurlTask`, on its own: the cache
/// policies the downloader does not use itself, cancelling, and invalidation. (The downloader's own use of it is
/// covered by the DL and OP tests and FAQ-09.)
final class DLCurlSessionTests: XCTestCase {
    private var server: SDPortTestServer!
    private var cacheDirectory: TemporaryDirectory!
    private var session: SDWebImageCurlSession!

    override func setUpWithError() throws {
        server = SDPortTestServer()
        server.route(
            "/a.jpg", .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg").cacheControl("no-cache"))
        server.route("/stall.jpg", .stall)
        try server.start()
        cacheDirectory = try TemporaryDirectory(prefix: "dl-session-urlcache")
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = URLCache(memoryCapacity: 1 << 20, diskCapacity: 8 << 20, diskPath: cacheDirectory.path)
        session = SDWebImageCurlSession(configuration: configuration)
    }

    override func tearDown() {
        session.invalidateAndCancel()
        session = nil
        server.stop()
        server = nil  // XCTest keeps test objects to the end; LeakSanitizer flagged live servers
        cacheDirectory.remove()
    }

    private func run(
        _ path: String, policy: URLRequest.CachePolicy, on otherSession: SDWebImageCurlSession? = nil
    ) throws -> TaskRecorder {
        let done = expectation(description: path)
        let recorder = TaskRecorder { done.fulfill() }
        let request = URLRequest(url: server.url(path), cachePolicy: policy, timeoutInterval: 10)
        try XCTUnwrap((otherSession ?? session).dataTask(with: request, delegate: recorder)).resume()
        wait(for: [done], timeout: 10)
        return recorder
    }

    /// The response head is parsed from libcurl's header lines as bytes: spaces inside a value stay, the optional
    /// whitespace around it (space or tab) goes, a field sent twice is joined with ", " under its first spelling,
    /// and the body arrives whole however it was chunked.
    func testResponseHeadParsingKeepsInnerSpacesAndJoinsRepeatedFields() throws {
        let body = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        server.route(
            "/head.bin",
            .data(body).headers(["X-Spaces": "two  inner  spaces", "X-Tab": "\tpadded "])
                .setCookie("a=1").setCookie("b=2"))
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil  // the cookies are only repeated fields here; nothing is stored
        configuration.httpShouldSetCookies = false
        let plain = SDWebImageCurlSession(configuration: configuration)
        defer { plain.invalidateAndCancel() }
        let done = expectation(description: "head")
        let recorder = TaskRecorder { done.fulfill() }
        try XCTUnwrap(plain.dataTask(with: URLRequest(url: server.url("/head.bin")), delegate: recorder)).resume()
        wait(for: [done], timeout: 10)
        let result = recorder.snapshot
        XCTAssertNil(result.error)
        let response = try XCTUnwrap(result.response)
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.value(forHTTPHeaderField: "x-spaces"), "two  inner  spaces")
        XCTAssertEqual(response.value(forHTTPHeaderField: "X-Tab"), "padded")
        XCTAssertEqual(response.value(forHTTPHeaderField: "Set-Cookie"), "a=1, b=2")
        XCTAssertEqual(response.expectedContentLength, Int64(body.count))
        XCTAssertEqual(result.body, body)
        XCTAssertEqual(result.completions, 1)
    }

    /// NSURLSession offers its cache only a body that fits it, about 5 % of a disk cache's size: with a cache of
    /// 1 MiB on disk (52 428 bytes; its 4 MiB of memory do not count), a body of 40 000 bytes is proposed and stored;
    /// one of 60 000 is neither proposed nor stored, whether its Content-Length says so up front or it arrives
    /// chunked with no length. A cache without a disk is held to 5 % of its memory.
    func testOnlyBodiesWithinFivePercentOfTheCacheAreProposed() throws {
        let small = Data(repeating: 1, count: 40_000)
        let large = Data(repeating: 2, count: 60_000)
        server.route("/small.bin", .data(small))
        server.route("/large.bin", .data(large))
        server.route("/large-chunked.bin", .data(large).chunked())
        let directory = try TemporaryDirectory(prefix: "dl-session-small-urlcache")
        defer { directory.remove() }
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = URLCache(memoryCapacity: 4 << 20, diskCapacity: 1 << 20, diskPath: directory.path)
        let smallCacheSession = SDWebImageCurlSession(configuration: configuration)
        defer { smallCacheSession.invalidateAndCancel() }
        let cache = try XCTUnwrap(smallCacheSession.urlCache)
        XCTAssertEqual(SDWebImageHTTPCacheRules.largestStorableBody(in: cache), 52_428)
        let memoryOnly = URLCache(memoryCapacity: 1 << 20, diskCapacity: 0, diskPath: nil)
        XCTAssertEqual(SDWebImageHTTPCacheRules.largestStorableBody(in: memoryOnly), 52_428)

        for (path, body, fits) in [
            ("/small.bin", small, true), ("/large.bin", large, false), ("/large-chunked.bin", large, false),
        ] {
            let network = try run(path, policy: .reloadIgnoringLocalCacheData, on: smallCacheSession)
            XCTAssertNil(network.snapshot.error, path)
            XCTAssertEqual(network.snapshot.body, body, path)
            XCTAssertEqual(network.proposalCount, fits ? 1 : 0, path)
            let stored = try run(path, policy: .returnCacheDataDontLoad, on: smallCacheSession).snapshot
            if fits {
                XCTAssertEqual(stored.body, body, path)
            } else {
                XCTAssertEqual(stored.error?.code, NSURLErrorResourceUnavailable, path)
            }
        }
    }

    /// Parity: FAQ-09 — ReturnCacheDataDontLoad never touches the network: NSURLErrorResourceUnavailable
    /// without a stored response, the stored one (even stale) with it.
    func test_FAQ09_returnCacheDataDontLoad() throws {
        let missing = try run("/a.jpg", policy: .returnCacheDataDontLoad).snapshot
        XCTAssertEqual(missing.error?.code, NSURLErrorResourceUnavailable)
        XCTAssertEqual(server.hits("/a.jpg"), 0)

        XCTAssertNil(try run("/a.jpg", policy: .reloadIgnoringLocalCacheData).snapshot.error)  // stores it
        let cached = try run("/a.jpg", policy: .returnCacheDataDontLoad).snapshot
        XCTAssertNil(cached.error)
        XCTAssertEqual(cached.response?.statusCode, 200)
        XCTAssertEqual(cached.body, try TestFixtures.data("baseline.jpg"))
        XCTAssertEqual(server.hits("/a.jpg"), 1)
    }

    /// Parity: FAQ-09 — ReturnCacheDataElseLoad loads when nothing is stored, then serves the stored response.
    func test_FAQ09_returnCacheDataElseLoad() throws {
        XCTAssertNil(try run("/a.jpg", policy: .returnCacheDataElseLoad).snapshot.error)
        let second = try run("/a.jpg", policy: .returnCacheDataElseLoad).snapshot
        XCTAssertEqual(second.body.count, try TestFixtures.data("baseline.jpg").count)
        XCTAssertEqual(server.hits("/a.jpg"), 1)
    }

    /// A task cancelled while it waits for the server completes once with NSURLErrorCancelled.
    func test_DL11_cancelledTaskCompletesOnceWithCancelled() throws {
        let done = expectation(description: "cancelled")
        let recorder = TaskRecorder { done.fulfill() }
        let task = try XCTUnwrap(session.dataTask(with: URLRequest(url: server.url("/stall.jpg")), delegate: recorder))
        task.resume()
        XCTAssertTrue(waitUntil { self.server.hits("/stall.jpg") == 1 })
        task.cancel()
        task.cancel()
        wait(for: [done], timeout: 10)
        XCTAssertEqual(recorder.snapshot.error?.code, NSURLErrorCancelled)
        XCTAssertEqual(task.state, .completed)
        XCTAssertTrue(waitUntil { self.session.outstandingTaskCount == 0 })
        XCTAssertEqual(recorder.snapshot.completions, 1)
    }

    /// After `invalidateAndCancel` running tasks end with NSURLErrorCancelled and no new task is made.
    func test_OP01_invalidatedSessionCancelsAndRefuses() throws {
        let done = expectation(description: "cancelled by invalidation")
        let recorder = TaskRecorder { done.fulfill() }
        try XCTUnwrap(session.dataTask(with: URLRequest(url: server.url("/stall.jpg")), delegate: recorder)).resume()
        XCTAssertTrue(waitUntil { self.server.hits("/stall.jpg") == 1 })
        session.invalidateAndCancel()
        wait(for: [done], timeout: 10)
        XCTAssertEqual(recorder.snapshot.error?.code, NSURLErrorCancelled)
        XCTAssertNil(session.dataTask(with: URLRequest(url: server.url("/a.jpg")), delegate: TaskRecorder {}))
    }

    /// `finishTasksAndInvalidate` lets running tasks finish and refuses new ones.
    func test_OP01_finishTasksAndInvalidateLetsRunningTasksFinish() throws {
        server.route("/slow.jpg", .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg").delay(0.2))
        let done = expectation(description: "finished despite invalidation")
        let recorder = TaskRecorder { done.fulfill() }
        try XCTUnwrap(session.dataTask(with: URLRequest(url: server.url("/slow.jpg")), delegate: recorder)).resume()
        session.finishTasksAndInvalidate()
        XCTAssertNil(session.dataTask(with: URLRequest(url: server.url("/a.jpg")), delegate: TaskRecorder {}))
        wait(for: [done], timeout: 10)
        XCTAssertNil(recorder.snapshot.error)
        XCTAssertEqual(recorder.snapshot.body.count, try TestFixtures.data("baseline.jpg").count)
    }

    /// Parity: DL-18 (port) — the session holds its delegate weakly, so a downloader can go away while its tasks
    /// run; a task whose delegate is gone still completes and leaves the session, at the response and at the end of
    /// a stalled transfer that is cancelled (a task and its session hold each other until it completes).
    func test_DL18_taskWhoseSessionDelegateIsGoneStillCompletes() throws {
        var recorder: TaskRecorder? = TaskRecorder {}
        let orphaned = SDWebImageCurlSession(configuration: URLSessionConfiguration.default, delegate: recorder)
        defer { orphaned.invalidateAndCancel() }
        let answered = try XCTUnwrap(orphaned.dataTask(with: URLRequest(url: server.url("/a.jpg"))))
        let stalled = try XCTUnwrap(orphaned.dataTask(with: URLRequest(url: server.url("/stall.jpg"))))
        XCTAssertNotNil(orphaned.delegate)
        recorder = nil
        XCTAssertNil(orphaned.delegate, "held weakly")
        answered.resume()
        stalled.resume()
        XCTAssertTrue(waitUntil { answered.state == .completed }, "the response found no delegate: the task ends")
        XCTAssertTrue(waitUntil { self.server.hits("/stall.jpg") == 1 })
        stalled.cancel()
        XCTAssertTrue(waitUntil { orphaned.outstandingTaskCount == 0 }, "both left the session")
    }
}
