import CQueueLabel
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
    /// Set for a mark between the steps (the operation starting or being cancelled); then `step` is the step it
    /// belongs to. Only observers added with `includingMarks: true` receive marks.
    public let mark: SDWebImageFlowMark?
    /// Where the step ran: the label of the dispatch queue (`dispatch_queue_get_label` of the current queue),
    /// or, inside an `OperationQueue`'s operation, that queue's name; "" on a thread with no queue.
    public let queue: String
    /// The kernel's id of the thread the step ran on.
    public let thread: UInt64
    /// Whether that thread is the process's main thread. Under `dispatchMain()` (the `sdport` command) the main
    /// queue's blocks run on other threads, so `queue` is what says "main queue".
    public let isMainThread: Bool
}

/// Reports the steps of the flow (`SDWebImageFlowStep`) to swift-log, at trace level under the label
/// `com.hackemist.SDWebImage.flow`, and to observers (the `--trace` printer, the demo, the tests).
///
/// Not in the original, which has no tracing; the layers call `record` where the articles' sequence diagram
/// puts each step, and `mark` where the download operation starts or is cancelled (`SDWebImageFlowMark`). Each
/// event says which queue and thread it ran on (`sdport load --trace` prints them, `sdport diagram` draws them);
/// that costs two C calls per event, made only when someone listens. Observers are held in a dictionary inside a
/// `Mutex`.
public enum SDWebImageTrace {
    /// An observer registration; pass it to `removeObserver` to stop receiving events.
    public struct Token: Hashable, Sendable { fileprivate let id: UInt64 }

    /// The swift-log logger every step goes to, at trace level.
    public static let logger = Logger(label: "com.hackemist.SDWebImage.flow")

    /// The observers by registration number, and the last number given.
    private struct Registry {
        var observers: [UInt64: @Sendable (SDWebImageTraceEvent) -> Void] = [:]
        /// The observers that also receive marks (a subset of `observers`' keys).
        var markObservers: Set<UInt64> = []
        var nextID: UInt64 = 0
    }
    private static let registry = Mutex(Registry())

    /// Calls `observer` for every event from now on, on whatever thread reports it; with `includingMarks`, also
    /// for the marks between the steps (`SDWebImageFlowMark`).
    @discardableResult
    public static func addObserver(includingMarks: Bool = false,
                                   _ observer: @escaping @Sendable (SDWebImageTraceEvent) -> Void) -> Token {
        registry.withLock { registry in
            registry.nextID += 1
            registry.observers[registry.nextID] = observer
            if includingMarks { registry.markObservers.insert(registry.nextID) }
            return Token(id: registry.nextID)
        }
    }

    /// Stops calling the observer `token` registered.
    public static func removeObserver(_ token: Token) {
        registry.withLock {
            $0.observers[token.id] = nil
            $0.markObservers.remove(token.id)
        }
    }

    /// Reports one step.
    public static func record(_ step: SDWebImageFlowStep, key: String?, _ detail: @autoclosure () -> String = "") {
        let current = registry.withLock { Array($0.observers.values) }
        let wantsLog = logger.logLevel <= .trace
        guard !current.isEmpty || wantsLog else { return }
        let event = makeEvent(step, mark: nil, key: key, detail: detail())
        if wantsLog {
            logger.trace("\(step.rawValue). \(step)", metadata: ["key": .string(key ?? "-"), "detail": .string(event.detail),
                                                                 "queue": .string(event.queue), "thread": .stringConvertible(event.thread)])
        }
        for observer in current { observer(event) }
    }

    /// Reports a mark between the steps, to the observers that asked for marks only. Costs one lock when nobody does.
    public static func mark(_ mark: SDWebImageFlowMark, key: String?, _ detail: @autoclosure () -> String = "") {
        let current = registry.withLock { registry in
            registry.markObservers.compactMap { registry.observers[$0] }
        }
        guard !current.isEmpty else { return }
        let event = makeEvent(mark.step, mark: mark, key: key, detail: detail())
        for observer in current { observer(event) }
    }

    /// The event, with where it runs. Only made when someone listens: the queue label and the thread id are two
    /// calls into C (`CQueueLabel`), and `OperationQueue.current` a thread-local read.
    private static func makeEvent(_ step: SDWebImageFlowStep, mark: SDWebImageFlowMark?, key: String?, detail: String) -> SDWebImageTraceEvent {
        var queue = String(cString: sdport_current_queue_label())
        // An operation runs on a queue the OperationQueue makes and names after itself only on some platforms;
        // its own name says which queue the operation belongs to.
        if !Thread.isMainThread, let operationQueue = OperationQueue.current, operationQueue !== OperationQueue.main,
           let name = operationQueue.name, !name.isEmpty {
            queue = name
        }
        return SDWebImageTraceEvent(step: step, key: key, detail: detail, date: Date(), mark: mark, queue: queue,
                                    thread: sdport_current_thread_id(), isMainThread: Thread.isMainThread)
    }
}
