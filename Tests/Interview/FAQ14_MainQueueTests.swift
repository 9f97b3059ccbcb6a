import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// FAQ-14 — Why does SDWebImage check for the main *queue* rather than the main thread?
///
/// Answer: `dispatch_main_async_safe` (`SDWebImageCompat.h:97-106`, 4.4.8) compares the current queue's label
/// pointer with the main queue's (`==`, since 4.4.0; 4.0–4.3 compared the strings with `strcmp`, 3.x asked
/// `[NSThread isMainThread]`, 5.15+ adds `SDCallbackQueue`). Some frameworks require work on the main queue (not just any block that happens to run on the
/// main thread). Already on the main queue, the block runs at once; anywhere else it is dispatched to the main
/// queue. Port: `dispatch_main_async_safe(_:)`, which reads the current queue's label as 4.4.8 does (INT-01).
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
                XCTAssertFalse(ranInline.value, "main thread, but the serial queue: the block must wait for the main queue")
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
