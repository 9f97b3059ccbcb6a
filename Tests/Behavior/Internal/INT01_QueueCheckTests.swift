import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// `dispatch_main_async_safe` / `dispatch_queue_async_safe` decide by the current queue's own label, as 4.4.8's
/// `DISPATCH_CURRENT_QUEUE_LABEL` check does (`SDWebImageCompat.h:96-106`), not by following target queues
/// (INT-01). FAQ-14's tests cover the main queue itself and a main-thread caller that is not on it.
final class INT01_QueueCheckTests: XCTestCase {
    /// Parity: INT-01 — a serial queue that targets the main queue runs its blocks on the main thread, but it is not
    /// the main queue: the block is dispatched (it runs after the call returned), not run inline. On the main
    /// queue itself the block still runs at once.
    func test_INT01_queueTargetingMainIsNotMain() {
        let targetingMain = DispatchQueue(label: "sdport.test.int01.targets-main", target: .main)
        let checked = expectation(description: "checked on the queue that targets main")
        let dispatched = expectation(description: "the dispatched block ran")
        targetingMain.async {
            XCTAssertTrue(Thread.isMainThread, "its blocks run on the main thread")
            let returned = Locked(false)
            dispatch_main_async_safe {
                XCTAssertTrue(returned.value, "dispatched: the call returned before the block ran")
                dispatched.fulfill()
            }
            returned.value = true
            checked.fulfill()
        }
        wait(for: [checked, dispatched], timeout: 5, enforceOrder: true)

        let onMain = expectation(description: "on the main queue")
        DispatchQueue.main.async {
            let ranInline = Locked(false)
            dispatch_main_async_safe { ranInline.value = true }
            XCTAssertTrue(ranInline.value, "on the main queue itself the block runs before the call returns")
            onMain.fulfill()
        }
        wait(for: [onMain], timeout: 5)
    }

    /// Parity: INT-01 — the same rule for any queue: a queue that targets `queue` is not `queue`, and of two queues
    /// with one label only the one the code runs on counts. "Inline" means the block ran on the calling thread
    /// before the call returned; a dispatched block may run at once on another thread, which is not inline.
    func test_INT01_anyQueueByItsOwnLabel() {
        let queue = DispatchQueue(label: "sdport.test.int01.queue")
        let child = DispatchQueue(label: "sdport.test.int01.child", target: queue)
        let twin = DispatchQueue(label: "sdport.test.int01.queue")
        let results = Recorder<(String, Bool)>()
        let done = DispatchGroup()
        for (name, runner) in [("own", queue), ("child", child), ("twin", twin)] {
            done.enter()
            runner.async {
                let caller = pthread_self()
                let inCall = Locked(true)
                dispatch_queue_async_safe(queue) {
                    results.append((name, inCall.value && pthread_equal(pthread_self(), caller) != 0))
                    done.leave()
                }
                inCall.value = false
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
        let inline = Dictionary(uniqueKeysWithValues: results.values)
        XCTAssertEqual(inline["own"], true, "on the queue itself: at once")
        XCTAssertEqual(inline["child"], false, "a queue targeting it: dispatched")
        XCTAssertEqual(inline["twin"], false, "another queue with the same label: dispatched")
    }
}
