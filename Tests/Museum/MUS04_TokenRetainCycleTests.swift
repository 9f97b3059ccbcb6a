import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// MUS-04: a retain cycle through the download token. In 4.4.8 the token holds the operation's callback entry
/// strongly (`SDWebImageDownloader.h:102`), the combined operation keeps the token (`SDWebImageManager.m:19`)
/// and nothing clears it when the load ends, so a completion that captures its own handle closes a cycle. The
/// patch makes the token's reference weak, as 5.2.1 did.
final class MUS04_TokenRetainCycleTests: XCTestCase {
    private var env: ManagerTestEnvironment!

    override func setUpWithError() throws { env = try ManagerTestEnvironment(namespace: "mus04") }
    override func tearDown() {
        env.tearDown()
        env = nil
    }

    /// Starts a download whose completion refers to its own handle; returns weak references to the handle and to
    /// the holder. A function of its own, so no local of the test outlives it.
    private func startLoad(_ url: URL, done: XCTestExpectation) -> (handle: WeakReference, holder: WeakReference) {
        let holder = MUSOperationHolder()
        holder.operation = env.manager.loadImage(with: url) { _, _, _, _, finished, _ in
            _ = holder.operation  // the completion refers to the handle it was returned
            if finished { done.fulfill() }
        }
        let handle = WeakReference()
        let weakHolder = WeakReference()
        handle.object = holder.operation
        weakHolder.object = holder
        return (handle, weakHolder)
    }

    /// Faithful side: after the download finished and every queued block ran, the handle is still alive, kept by
    /// its own token; breaking the captured reference frees it (so the cycle was the cause).
    func test_MUS04_handleCapturedByItsCompletionLeaks() throws {
        try MuseumSide.requireUnpatched("MUS-04")
        let url = try env.serveFixture("rgba.png", at: "/a.png")
        let done = expectation(description: "load")
        let (handle, holder) = startLoad(url, done: done)
        wait(for: [done], timeout: 30)
        drainMainQueue()
        do {
            let operation = handle.object as? SDWebImageCombinedOperation
            XCTAssertNotNil(operation, "the finished load is still alive (4.4.8's cycle)")
            XCTAssertNotNil(operation?.downloadToken?.downloadOperationCancelToken, "kept by its own token")
        }
        // Break the cycle so the leak does not outlive the test (LeakSanitizer runs the suite too).
        (holder.object as? MUSOperationHolder)?.operation = nil
        XCTAssertTrue(waitUntil { handle.object == nil }, "with the captured reference gone, the handle is freed")
    }

    /// Fixed side (5.2.1): the token's reference is weak, so the handle is freed once the load is over.
    func test_MUS04_fixed_handleCapturedByItsCompletionIsFreed() throws {
        try MuseumSide.requirePatched("MUS-04")
        let url = try env.serveFixture("rgba.png", at: "/a.png")
        let done = expectation(description: "load")
        let (handle, _) = startLoad(url, done: done)
        wait(for: [done], timeout: 30)
        drainMainQueue()
        XCTAssertTrue(handle.wasEverSet)
        XCTAssertTrue(waitUntil { handle.object == nil }, "nothing keeps the finished load alive")
    }
}
