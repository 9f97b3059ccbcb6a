import Foundation

/// Waiting without sleeping: runs the main run loop (so main-queue work goes on) until a condition holds or a
/// deadline passes. Returns whether the condition held.
public enum MGRWait {
    @discardableResult
    public static func until(timeout: TimeInterval = 10, _ condition: () -> Bool) -> Bool {
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
    public static func drainMainQueue(timeout: TimeInterval = 10) {
        let done = MGRRecorder<Bool>()
        DispatchQueue.main.async { done.append(true) }
        until(timeout: timeout) { done.count > 0 }
    }
}
