import Foundation
import Synchronization
import Logging

/// One reported step of the flow.
public struct SDWebImageTraceEvent: Sendable {
    /// Which of the ten steps this is.
    public let step: SDWebImageFlowStep
    /// The URL's absolute string or the cache key the step worked on.
    public let key: String?
    /// What happened, in a few words ("hit", "miss", "200, 102400 bytes", ...).
    public let detail: String
    /// When the step was reported.
    public let date: Date
}

/// Reports the steps of the flow (`SDWebImageFlowStep`) to swift-log, at trace level under the label
/// `com.hackemist.SDWebImage.flow`, and to observers (the `--trace` printer, the demo, the tests).
///
/// Not in the original, which has no tracing; the layers call `record` where the articles' sequence diagram
/// puts each step. Observers are held in a dictionary inside a `Mutex`.
public enum SDWebImageTrace {
    /// An observer registration; pass it to `removeObserver` to stop receiving events.
    public struct Token: Hashable, Sendable { fileprivate let id: UInt64 }

    /// The swift-log logger every step goes to, at trace level.
    public static let logger = Logger(label: "com.hackemist.SDWebImage.flow")

    /// The observers by registration number, and the last number given.
    private struct Registry {
        var observers: [UInt64: @Sendable (SDWebImageTraceEvent) -> Void] = [:]
        var nextID: UInt64 = 0
    }
    private static let registry = Mutex(Registry())

    /// Calls `observer` for every event from now on, on whatever thread reports it.
    @discardableResult
    public static func addObserver(_ observer: @escaping @Sendable (SDWebImageTraceEvent) -> Void) -> Token {
        registry.withLock { registry in
            registry.nextID += 1
            registry.observers[registry.nextID] = observer
            return Token(id: registry.nextID)
        }
    }

    /// Stops calling the observer `token` registered.
    public static func removeObserver(_ token: Token) {
        _ = registry.withLock { $0.observers.removeValue(forKey: token.id) }
    }

    /// Reports one step.
    public static func record(_ step: SDWebImageFlowStep, key: String?, _ detail: @autoclosure () -> String = "") {
        let current = registry.withLock { Array($0.observers.values) }
        let wantsLog = logger.logLevel <= .trace
        guard !current.isEmpty || wantsLog else { return }
        let event = SDWebImageTraceEvent(step: step, key: key, detail: detail(), date: Date())
        if wantsLog {
            logger.trace("\(step.rawValue). \(step)", metadata: ["key": .string(key ?? "-"), "detail": .string(event.detail)])
        }
        for observer in current { observer(event) }
    }
}
