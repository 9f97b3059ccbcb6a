import Foundation
import SDPort

/// Collects the trace events (marks included) of one key while a diagram's scenario runs, and lets the scenario
/// wait for an event without sleeping: a waiter's condition is checked on every new event. A wait is bounded: an
/// event that never comes (a load that failed before it) ends the command with a failure rather than a hang.
final class DiagramEventLog: @unchecked Sendable {
    private struct Waiter {
        let condition: @Sendable ([SDWebImageTraceEvent]) -> Bool
        let id: Int
        let continuation: CheckedContinuation<Bool, Never>
    }

    /// How long a wait lasts before it fails: the events come within milliseconds of each other normally.
    static let waitLimit: TimeInterval = 60

    /// Guards `events`, `waiters`, `nextWaiterID` and `token`.
    private let lock = NSLock()
    private var events: [SDWebImageTraceEvent] = []
    private var waiters: [Waiter] = []
    private var nextWaiterID = 0
    private var token: SDWebImageTrace.Token?

    init(key: String) {
        let token = SDWebImageTrace.addObserver(includingMarks: true) { [weak self] event in
            if event.key == key { self?.append(event) }
        }
        lock.withLock { self.token = token }
    }

    /// The events so far, in the order they were reported.
    var snapshot: [SDWebImageTraceEvent] { lock.withLock { events } }

    /// Returns once `condition` holds for the events reported so far; throws `SDPortFailure(.stalled)` naming
    /// `what` if it does not hold within `waitLimit`.
    func wait(for what: String, until condition: @escaping @Sendable ([SDWebImageTraceEvent]) -> Bool) async throws {
        let held = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let id = lock.withLock { () -> Int? in
                if condition(events) { return nil }
                nextWaiterID += 1
                waiters.append(Waiter(condition: condition, id: nextWaiterID, continuation: continuation))
                return nextWaiterID
            }
            guard let id else { return continuation.resume(returning: true) }
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.waitLimit) { [self] in
                let late = lock.withLock { () -> Waiter? in
                    guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return waiters.remove(at: index)
                }
                late?.continuation.resume(returning: false)
            }
        }
        if !held {
            throw SDPortFailure(.stalled, "diagram: \(what) did not happen within \(Int(Self.waitLimit)) s")
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
        for waiter in ready { waiter.continuation.resume(returning: true) }
    }

    deinit { stop() }
}
