import Foundation

/// Ends a command that stalls: a failure must end the process, not hang it. Part of the command line, with no
/// counterpart in SDWebImage 4.4.8.
///
/// `sdport` awaits the library's callbacks on the main queue (the async `main` ends in `dispatchMain()`). If a
/// step never calls back -- a completion lost, an event a diagram waits for that never comes -- the main task
/// waits forever, and the loopback server's and libcurl's threads keep the process alive with nothing left to
/// call `exit`. So every command but the two that wait for a person (`quiz`) or for a scratch build (`drill`)
/// runs under a deadline, on a timer of its own: past it, one line goes to stderr and the process ends with
/// `SDPortExitCode.stalled`. The default is far beyond any command's normal run; `SDPORT_COMMAND_DEADLINE`
/// (seconds; 0 turns it off) changes it.
enum CommandWatchdog {
    /// The deadline when the environment gives none.
    static let defaultSeconds: TimeInterval = 600

    /// Written once by `arm` on the main task, before any other thread can need it; read by the timer.
    nonisolated(unsafe) private static var timer: DispatchSourceTimer?

    /// The seconds `SDPORT_COMMAND_DEADLINE` asks for (nil: not set or not a number), else the default.
    static var seconds: TimeInterval {
        if let text = ProcessInfo.processInfo.environment["SDPORT_COMMAND_DEADLINE"], let value = TimeInterval(text),
            value >= 0
        {
            return value
        }
        return defaultSeconds
    }

    /// Starts the deadline of `command` (named in the message).
    static func arm(command: String) {
        let limit = seconds
        guard limit > 0 else { return }
        let source = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        source.schedule(deadline: .now() + limit)
        source.setEventHandler {
            // write(2) and _exit: the stalled code may hold Console's lock, and exit's handlers may wait on the
            // very threads that stalled.
            let line = "sdport: \(command) did not finish within \(Int(limit)) s: a step inside it never completed\n"
            _ = line.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
            _exit(SDPortExitCode.stalled.rawValue)
        }
        source.resume()
        timer = source
    }
}
