import Foundation
import SDPort

/// Collects the flow's events (`SDWebImageTrace`) — the ten steps, the marks between them and the work between them
/// (the transfer thread's libcurl loop, the io queue's disk writes) — from `start()` to `stop()`, and writes them as
/// a Chrome trace (`ChromeTrace`) for Perfetto or `about:tracing`. `sdport load --timeline` and
/// `sdport-bench downloader --timeline` use it.
///
/// Not in the original, which has no tracing. Events arrive on whatever thread reports them; `lock` guards the
/// list and the observer's token.
public final class TimelineRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [SDWebImageTraceEvent] = []
    private var token: SDWebImageTrace.Token?

    public init() {}

    /// Starts recording (again: the list is kept).
    public func start() {
        let token = SDWebImageTrace.addObserver(includingMarks: true, includingWork: true) { [weak self] event in
            self?.append(event)
        }
        lock.withLock { self.token = token }
    }

    /// Stops recording and returns what was recorded.
    @discardableResult
    public func stop() -> [SDWebImageTraceEvent] {
        let token = lock.withLock { () -> SDWebImageTrace.Token? in
            defer { self.token = nil }
            return self.token
        }
        if let token { SDWebImageTrace.removeObserver(token) }
        return events
    }

    /// The events so far, in the order they were reported.
    public var events: [SDWebImageTraceEvent] { lock.withLock { recorded } }

    /// Forgets the events so far (a benchmark records only its measured run).
    public func clear() { lock.withLock { recorded.removeAll() } }

    /// Writes the events so far as a Chrome trace to `path`.
    public func write(to path: String, processName: String) throws {
        try ChromeTrace(events: events, processName: processName).data().write(
            to: URL(fileURLWithPath: path), options: .atomic)
    }

    private func append(_ event: SDWebImageTraceEvent) {
        lock.withLock { recorded.append(event) }
    }

    deinit { stop() }
}
