import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// Proves FAQ-10: the card is `Docs/knowledge/faq/FAQ-10.json` (question, answer, citations; `sdport faq 10` prints
/// it).
///
/// Loads through a manager on a loopback server with a String URL, values that are not URLs, a nil and an empty URL,
/// and checks the requests the server saw and each completion's image, error and `finished`, including that on the main
/// queue the error completion runs before `loadImage` returns.
final class FAQ10_URLTypeTests: XCTestCase {
    private var env: ManagerTestEnvironment!

    override func setUpWithError() throws { env = try ManagerTestEnvironment() }
    override func tearDown() {
        env.tearDown()
        env = nil
    }

    private func loadAny(_ value: Any?) -> [CompletionCall] {
        let calls = Recorder<CompletionCall>()
        env.manager.loadImage(withAnyURL: value) { image, data, error, cacheType, finished, url in
            calls.append(
                CompletionCall(
                    image: image, data: data, error: error, cacheType: cacheType,
                    finished: finished, url: url))
        }
        waitUntil { calls.count > 0 }
        return calls.values
    }

    private func assertFileDoesNotExist(
        _ calls: [CompletionCall], _ message: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(calls.count, 1, message, file: file, line: line)
        XCTAssertEqual(calls.first?.errorDomain, NSURLErrorDomain, message, file: file, line: line)
        XCTAssertEqual(calls.first?.errorCode, NSURLErrorFileDoesNotExist, message, file: file, line: line)
        XCTAssertEqual(calls.first?.finished, true, message, file: file, line: line)
        XCTAssertNil(calls.first?.image, message, file: file, line: line)
    }

    /// Parity: FAQ-10 — a String URL is converted and loads like the URL.
    func test_FAQ10_stringURLIsConverted() throws {
        let url = try env.serveFixture("rgba.png")
        let calls = Recorder<CompletionCall>()
        env.manager.loadImage(with: url.absoluteString) { image, data, error, cacheType, finished, imageURL in
            calls.append(
                CompletionCall(
                    image: image, data: data, error: error, cacheType: cacheType,
                    finished: finished, url: imageURL))
        }
        XCTAssertTrue(waitUntil { calls.count > 0 })
        XCTAssertNotNil(calls.values.first?.image)
        XCTAssertEqual(calls.values.first?.url, url)
        XCTAssertEqual(loadAny(url.absoluteString).first?.cacheType, .memory, "through Any? too")
        XCTAssertEqual(loadAny(url).first?.cacheType, .memory)
    }

    /// Parity: FAQ-10 — values that are not URLs become nil and complete with FileDoesNotExist, without a request.
    func test_FAQ10_nonURLValuesBecomeNil() {
        assertFileDoesNotExist(loadAny(NSNull()), "NSNull")
        assertFileDoesNotExist(loadAny(42), "a number")
        assertFileDoesNotExist(loadAny([URL(string: "https://example.test/a.png")!]), "an array")
        XCTAssertEqual(env.server.totalHits, 0)
    }

    /// Parity: FAQ-10 — nil and empty URLs complete at once with FileDoesNotExist, finished.
    func test_FAQ10_nilOrEmptyURLCompletesWithFileDoesNotExist() {
        assertFileDoesNotExist(env.load(nil).calls, "nil URL")
        assertFileDoesNotExist(loadAny(nil), "nil Any")
        assertFileDoesNotExist(loadAny(""), "empty string")
        let calls = Recorder<CompletionCall>()
        env.manager.loadImage(with: String?.none) { image, data, error, cacheType, finished, url in
            calls.append(
                CompletionCall(
                    image: image, data: data, error: error, cacheType: cacheType,
                    finished: finished, url: url))
        }
        XCTAssertTrue(waitUntil { calls.count > 0 })
        assertFileDoesNotExist(calls.values, "nil String")
        XCTAssertFalse(env.manager.isRunning)
    }

    /// Parity: FAQ-10 — on the main queue the error completion runs before `loadImage` returns.
    func test_FAQ10_nilURLCompletesBeforeReturningOnMainQueue() {
        let done = expectation(description: "checked")
        DispatchQueue.main.async { [env] in
            let called = Recorder<Bool>()
            env!.manager.loadImage(with: URL?.none) { _, _, _, _, finished, _ in called.append(finished) }
            XCTAssertEqual(called.values, [true], "already called when loadImage returned")
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
    }
}
