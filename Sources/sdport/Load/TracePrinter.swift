import Foundation
import SDPort

/// Prints `SDWebImageTrace` events as they happen: the time since the printer started, step number, step, the
/// queue it ran on (`TraceLane`) and its thread, and the detail. Used by `load --trace` and the demo.
final class TracePrinter: @unchecked Sendable {
    /// Guards `token` and `muted`.
    private let lock = NSLock()
    private var token: SDWebImageTrace.Token?
    private var muted = false
    private let startTime = DispatchTime.now()
    private let indent: String
    private let toStandardError: Bool

    init(indent: String = "  ", toStandardError: Bool = false) {
        self.indent = indent
        self.toStandardError = toStandardError
    }

    /// Starts printing.
    func start() {
        let token = SDWebImageTrace.addObserver(includingMarks: true) { [weak self] event in self?.print(event) }
        lock.withLock { self.token = token }
    }

    /// Stops printing for good.
    func stop() {
        let token = lock.withLock { () -> SDWebImageTrace.Token? in
            defer { self.token = nil }
            return self.token
        }
        if let token { SDWebImageTrace.removeObserver(token) }
    }

    /// Pauses or resumes printing (the demo shows the full trace for the first load of each phase only).
    var isMuted: Bool {
        get { lock.withLock { muted } }
        set { lock.withLock { muted = newValue } }
    }

    private func print(_ event: SDWebImageTraceEvent) {
        guard !isMuted else { return }
        let elapsed = Milliseconds.since(startTime)
        // A mark between the steps (the operation starting on the download queue) has no number of its own.
        let step = (event.mark == nil ? "\(event.step.rawValue)." : " ·").padding(
            toLength: 4, withPad: " ", startingAt: 0)
        let name = (event.mark?.description ?? event.step.description).padding(
            toLength: 30, withPad: " ", startingAt: 0)
        let time = String(format: "%9.2f ms", elapsed)
        let lane = TraceLane(event)
        let queue = (lane == .other ? (event.queue.isEmpty ? "no queue" : event.queue) : lane.title)
        let thread = event.isMainThread ? "main thread" : "thread \(event.thread)"
        let place = "\(queue), \(thread)".padding(toLength: 50, withPad: " ", startingAt: 0)
        var line = "\(indent)\(time)  \(step)\(name)  \(place)"
        if !event.detail.isEmpty { line += "  \(event.detail)" }
        if toStandardError { Console.err(line) } else { Console.out(line) }
    }

    deinit { stop() }
}
