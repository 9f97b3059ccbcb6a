import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// The session injected into an operation is held weakly, as 4.4.8 holds `unownedSession`
/// (`SDWebImageDownloaderOperation.m:44-46`); when it is gone at `start`, the operation makes a session of its own
/// (`:146-160`) (DL-19).
final class DL19_InjectedSessionTests: XCTestCase {
    private var server: SDPortTestServer!

    override func setUpWithError() throws {
        server = SDPortTestServer()
        server.route("/a.jpg", .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg"))
        try server.start()
    }

    override func tearDown() {
        server.stop()
        server = nil
    }

    /// Starts `operation` and waits for its final completion; returns the image's width and the error.
    private func run(_ operation: SDWebImageDownloaderOperation) -> (width: Int?, error: Error?) {
        let done = expectation(description: "final completion")
        let result = Locked<(Int?, Error?)>((nil, nil))
        _ = operation.addHandlers(forProgress: nil) { image, _, error, finished in
            guard finished else { return }
            result.value = (image?.pixelWidth, error)
            done.fulfill()
        }
        operation.start()
        wait(for: [done], timeout: 15)
        return result.value
    }

    /// Parity: DL-19 — an operation does not keep the session it was made for: once its owner released it, the
    /// operation downloads on a session of its own (the released session's delegate hears nothing).
    func test_DL19_releasedSessionFallsBackToAnOwnSession() throws {
        let forwarder = DLSessionForwarder()
        weak var released: SDWebImageCurlSession?
        let operation: SDWebImageDownloaderOperation = {
            let session = SDWebImageCurlSession(configuration: .default, delegate: forwarder)
            released = session
            return SDWebImageDownloaderOperation(
                request: URLRequest(url: server.url("/a.jpg")), in: session, options: [])
        }()
        XCTAssertTrue(waitUntil { released == nil }, "the operation holds the injected session weakly")
        let result = run(operation)
        XCTAssertNil(result.error)
        XCTAssertEqual(result.width, 256)
        XCTAssertEqual(forwarder.forwarded.value, 0, "the download did not go through the released session")
        XCTAssertEqual(server.hits("/a.jpg"), 1)
    }

    /// Parity: DL-19 — while its owner keeps the session, the operation downloads on it.
    func test_DL19_liveSessionCarriesTheDownload() throws {
        let forwarder = DLSessionForwarder()
        let session = SDWebImageCurlSession(configuration: .default, delegate: forwarder)
        defer { session.invalidateAndCancel() }
        let operation = SDWebImageDownloaderOperation(
            request: URLRequest(url: server.url("/a.jpg")), in: session, options: [])
        let result = run(operation)
        XCTAssertNil(result.error)
        XCTAssertEqual(result.width, 256)
        XCTAssertGreaterThan(forwarder.forwarded.value, 1, "the response, the data and the end came through it")
        XCTAssertTrue(waitUntil { session.outstandingTaskCount == 0 }, "its task ended in that session")
    }
}
