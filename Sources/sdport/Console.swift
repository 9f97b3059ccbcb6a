import Foundation

/// Writes whole lines to stdout and stderr from any thread.
///
/// Trace events and progress arrive on the downloader's and the cache's queues while the command's own
/// task prints too; each write goes through `lock` so lines never interleave.
enum Console {
    /// Guards writes to both streams.
    private static let lock = NSLock()

    /// Whether stdout is a terminal (progress bars redraw one line; otherwise plain lines are printed).
    static let stdoutIsTerminal: Bool = isatty(STDOUT_FILENO) != 0

    /// Prints a line on stdout.
    static func out(_ line: String) {
        write(line + "\n", to: FileHandle.standardOutput)
    }

    /// Prints a line on stderr.
    static func err(_ line: String) {
        write(line + "\n", to: FileHandle.standardError)
    }

    /// Writes text on stdout without a newline (a progress bar redrawing its line with "\r").
    static func outRaw(_ text: String) {
        write(text, to: FileHandle.standardOutput)
    }

    /// A stdout whose reader has gone (`sdport quiz | head`: EPIPE, as the Swift runtime ignores SIGPIPE) ends the
    /// process quietly with status 0, as SIGPIPE would have ended it without a word; `FileHandle.write(_:)` would
    /// trap instead. A failed write to stderr is dropped: there is nowhere left to report it.
    private static func write(_ text: String, to handle: FileHandle) {
        lock.withLock {
            do {
                try handle.write(contentsOf: Data(text.utf8))
            } catch {
                if handle === FileHandle.standardOutput { Foundation.exit(0) }
            }
        }
    }
}
