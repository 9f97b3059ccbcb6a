import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// Proves FAQ-14: the card is `Docs/knowledge/faq/FAQ-14.json` (question, answer, citations; `sdport faq 14` prints
/// it).
///
/// Calls `dispatch_main_async_safe` from a main-queue block, from a background queue, and from inside another queue's
/// `sync` on the main thread, and checks whether the block ran before the call returned and on which queue it ran; does
/// the same for `dispatch_queue_async_safe` with a queue of its own.
final class FAQ14_MainQueueTests: XCTestCase {
    /// Parity: FAQ-14 — on the main queue the block runs synchronously, before the call returns.
    func test_FAQ14_onMainQueueRunsAtOnce() {
        let done = expectation(description: "main-queue block ran")
        DispatchQueue.main.async {
            let ranInline = Locked(false)
            dispatch_main_async_safe { ranInline.value = true }
            XCTAssertTrue(ranInline.value, "a block submitted from the main queue must run before the call returns")
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
    }

    /// Parity: FAQ-14 — from a background queue the block is dispatched and runs on the main thread.
    func test_FAQ14_fromBackgroundQueueDispatchesToMain() {
        let done = expectation(description: "block reached the main queue")
        DispatchQueue.global().async {
            // Had the block run inline it would be on this background thread, not the main one.
            dispatch_main_async_safe {
                XCTAssertTrue(Thread.isMainThread, "a background caller must hand the block to the main queue")
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 5)
    }

    /// Parity: FAQ-14 — the defining case: code on the main thread that is not on the main queue (a serial
    /// queue's `sync` called from a main-queue block runs its block on the calling thread, the main one) gets the
    /// block dispatched, not run at once; it runs later, on the main queue.
    func test_FAQ14_mainThreadButNotMainQueueIsDispatched() {
        let serial = DispatchQueue(label: "sdport.test.faq14.serial")
        let ranLater = expectation(description: "dispatched block ran on the main queue")
        let checked = expectation(description: "checked inside the serial queue")
        DispatchQueue.main.async {
            let ranInline = Locked(false)
            serial.sync {
                XCTAssertTrue(Thread.isMainThread, "sync from main runs the block on the main thread")
                dispatch_main_async_safe {
                    XCTAssertTrue(Thread.isMainThread)
                    ranInline.value = true
                    ranLater.fulfill()
                }
                XCTAssertFalse(
                    ranInline.value, "main thread, but the serial queue: the block must wait for the main queue")
            }
            XCTAssertFalse(ranInline.value, "still queued: this main-queue block has not returned yet")
            checked.fulfill()
        }
        wait(for: [checked, ranLater], timeout: 5, enforceOrder: true)
    }

    /// Parity: FAQ-14 — a queue that is not main: same rule, for `dispatch_queue_async_safe`.
    func test_FAQ14_sameRuleForAnyQueue() {
        let queue = DispatchQueue(label: "sdport.test.faq14")
        let done = expectation(description: "ran")
        queue.async {
            let ranInline = Locked(false)
            dispatch_queue_async_safe(queue) { ranInline.value = true }
            XCTAssertTrue(ranInline.value)
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
    }
}
