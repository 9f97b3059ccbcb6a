import Foundation
import SDPort

/// Collects the trace events (marks included) of one key while a diagram's scenario runs, and lets the scenario
/// wait for an event without sleeping: a waiter's condition is checked on every new event.
final class DiagramEventLog: @unchecked Sendable {
    private struct Waiter {
        let condition: @Sendable ([SDWebImageTraceEvent]) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    /// Guards `events`, `waiters` and `token`.
    private let lock = NSLock()
    private var events: [SDWebImageTraceEvent] = []
    private var waiters: [Waiter] = []
    private var token: SDWebImageTrace.Token?

    init(key: String) {
        let token = SDWebImageTrace.addObserver(includingMarks: true) { [weak self] event in
            if event.key == key { self?.append(event) }
        }
        lock.withLock { self.token = token }
    }

    /// The events so far, in the order they were reported.
    var snapshot: [SDWebImageTraceEvent] { lock.withLock { events } }

    /// Returns once `condition` holds for the events reported so far.
    func wait(until condition: @escaping @Sendable ([SDWebImageTraceEvent]) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = lock.withLock { () -> Bool in
                if condition(events) { return true }
                waiters.append(Waiter(condition: condition, continuation: continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Stops collecting.
    func stop() {
        let token = lock.withLock { () -> SDWebImageTrace.Token? in
            defer { self.token = nil }
            return self.token
        }
        if let token { SDWebImageTrace.removeObserver(token) }
    }

    private func append(_ event: SDWebImageTraceEvent) {
        let ready = lock.withLock { () -> [Waiter] in
            events.append(event)
            var ready: [Waiter] = []
            var waiting: [Waiter] = []
            for waiter in waiters {
                if waiter.condition(events) { ready.append(waiter) } else { waiting.append(waiter) }
            }
            waiters = waiting
            return ready
        }
        for waiter in ready { waiter.continuation.resume() }
    }

    deinit { stop() }
}
