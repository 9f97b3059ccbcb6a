import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// Leaks (the operation's lifetime): once a download has completed, or has been cancelled, nothing keeps the
/// operation, its callbacks (and what they captured), its data buffer or its images alive. 4.4.8's operation
/// gets this from `-reset` (callbacks and task dropped) and `-done`; a cycle, a callback never released or an
/// operation that never finishes would keep them all.
final class OP05_OperationLifetimeTests: XCTestCase {
    private var env: DownloaderTestEnvironment!

    override func setUpWithError() throws {
        let progressive = try TestFixtures.data("progressive.jpg")
        env = try DownloaderTestEnvironment(prefix: "op05-lifetime") { server in
            server.route("/a.jpg", .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg"))
            // A progressive JPEG in eighths, far enough apart that the test cancels before the last one.
            server.route(
                "/slow.jpg",
                SDPortTestRoute.data(progressive, contentType: "image/jpeg")
                    .trickle(chunkSize: progressive.count / 8 + 1, interval: 0.5))
        }
    }

    override func tearDown() {
        env.tearDown()
        env = nil
    }

    /// Something a completion block captures: it must go when the operation drops its callbacks.
    private final class Sentinel: Sendable {}

    /// Parity: OP-05 — after completion and after cancellation, weak references to the operation, a value
    /// its callbacks captured and its (partial) image all become nil. The data buffer has no identity a weak
    /// reference could hold (`Data` is a struct whose mirror hides its storage); only the operation
    /// (`imageData`) and the completion blocks hold it, so the operation and its callbacks being freed frees
    /// it, and `scripts/sanitize.sh address` reports it if anything else keeps it.
    func test_OP05_operationDataAndImageAreFreedAfterCompletionAndCancel() throws {
        // Completion: a whole download, decoded.
        let operation = WeakReference()
        let captured = WeakReference()
        let image = WeakReference()
        do {
            let sentinel = Sentinel()
            captured.object = sentinel
            let completed = expectation(description: "completed")
            let token = env.downloader.downloadImage(with: env.server.url("/a.jpg"), options: [], progress: nil) {
                received, _, _, finished in
                withExtendedLifetime(sentinel) {}
                image.object = received
                if finished { completed.fulfill() }
            }
            operation.object = try XCTUnwrap(token?.downloadOperation)
            wait(for: [completed], timeout: 10)
        }
        XCTAssertTrue(operation.wasEverSet, "the download had an operation")
        XCTAssertTrue(image.wasEverSet, "the completion had an image")
        XCTAssertTrue(waitUntil { operation.object == nil }, "the completed operation was freed")
        XCTAssertTrue(waitUntil { captured.object == nil }, "its callbacks were released")
        XCTAssertTrue(waitUntil { image.object == nil }, "its image was freed")

        // Cancellation: a progressive download cancelled after its first partial image.
        let cancelledOperation = WeakReference()
        let cancelledCapture = WeakReference()
        let partial = WeakReference()
        do {
            let sentinel = Sentinel()
            cancelledCapture.object = sentinel
            let token = env.downloader.downloadImage(
                with: env.server.url("/slow.jpg"), options: [.progressiveDownload],
                progress: nil
            ) { received, _, _, _ in
                withExtendedLifetime(sentinel) {}
                if let received { partial.object = received }
            }
            cancelledOperation.object = try XCTUnwrap(token?.downloadOperation)
            XCTAssertTrue(waitUntil { partial.wasEverSet }, "a partial image arrived")
            env.downloader.cancel(token)
        }
        XCTAssertTrue(waitUntil { cancelledOperation.object == nil }, "the cancelled operation was freed")
        XCTAssertTrue(waitUntil { cancelledCapture.object == nil }, "its callbacks were released")
        XCTAssertTrue(waitUntil { partial.object == nil }, "its partial image was freed")
        XCTAssertTrue(waitUntil { self.env.downloader.runningURLCount == 0 })
    }
}
