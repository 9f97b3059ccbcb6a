import Foundation

/// Waiting without sleeping: runs the main run loop (so main-queue work goes on) until `condition` holds or
/// `timeout` seconds pass, and returns whether it held. For states that change without a callback to wait on
/// (an operation leaving `URLOperations`, a queue slot freed, a file written): polling with a deadline, never a
/// fixed sleep. Off the main thread it polls every 2 ms instead.
@discardableResult
public func waitUntil(timeout: TimeInterval = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() > deadline { return false }
        if Thread.isMainThread {
            _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.002))
        } else {
            Thread.sleep(forTimeInterval: 0.002)  // the poll interval off the main thread
        }
    }
    return true
}

/// Runs the main queue until every block queued on it before this call has run.
public func drainMainQueue(timeout: TimeInterval = 10) {
    let done = Locked(false)
    DispatchQueue.main.async { done.value = true }
    waitUntil(timeout: timeout) { done.value }
}
