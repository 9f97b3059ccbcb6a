import Foundation

/// Holds back the responses of the routes made with `held(by:)` until `open()` is called: a test can have
/// several requests in flight at once for certain, and then let them all answer. Port test infrastructure.
///
/// Concurrency: `opened` and `waiting` are guarded by `lock`; the actions run outside it, on whatever thread
/// calls `open()` (each action hops onto its connection's event loop itself).
public final class SDPortTestGate: @unchecked Sendable {
    private let lock = NSLock()
    private var opened = false
    private var waiting: [@Sendable () -> Void] = []

    public init() {}

    /// Whether `open()` has been called.
    public var isOpen: Bool { lock.withLock { opened } }

    /// Lets every held response go, and every later one at once.
    public func open() {
        let actions = lock.withLock { () -> [@Sendable () -> Void] in
            opened = true
            defer { waiting = [] }
            return waiting
        }
        for action in actions { action() }
    }

    /// Runs `action` once the gate is open (at once when it already is).
    func whenOpen(_ action: @escaping @Sendable () -> Void) {
        let now = lock.withLock { () -> Bool in
            if opened { return true }
            waiting.append(action)
            return false
        }
        if now { action() }
    }
}
