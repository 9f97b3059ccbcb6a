import Foundation

extension Process {
    /// Waits for the process to exit, terminating it if it is still running after `seconds` (a hang must fail a
    /// test, not the whole run). Returns false when it had to terminate it.
    ///
    /// `waitUntilExit` rather than a `terminationHandler`: Foundation on Linux never frees a `Process` that had a
    /// termination handler, which LeakSanitizer reports.
    public func waitUntilExit(terminatingAfter seconds: TimeInterval) -> Bool {
        let timedOut = Locked(false)
        nonisolated(unsafe) weak var process = self  // read once, on the watchdog's thread
        let watchdog = DispatchWorkItem {
            guard let process, process.isRunning else { return }
            timedOut.value = true
            process.terminate()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
        waitUntilExit()
        watchdog.cancel()
        return !timedOut.value
    }
}
