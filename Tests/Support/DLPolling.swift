import Foundation

/// Runs the main run loop until `condition` holds or `timeout` seconds pass; returns whether it held.
/// For states that change without a callback to wait on (an operation leaving `URLOperations`, a queue
/// slot being freed): polling with a deadline, never a fixed sleep.
public func dlWaitUntil(timeout: TimeInterval = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() >= deadline { return false }
        _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.005))
    }
    return true
}
