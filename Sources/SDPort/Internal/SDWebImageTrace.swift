import CQueueLabel
import Foundation
import Logging
import Synchronization

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
    /// When the step's work began, for a step the port times (the disk query, the decode) and for work between the
    /// steps; nil for a step reported as a moment. The event then covers `start...date` on `thread`.
    public let start: Date?
    /// Set for a stretch of work a thread did for the flow between the steps ("libcurl" on the transfer thread,
    /// "disk write" on the io queue); then `step` is the step the work serves. Only observers added with
    /// `includingWork: true` receive it: it is what a timeline (`sdport load --timeline`) draws, not a step.
    public let work: String?
}

/// Reports the steps of the flow (`SDWebImageFlowStep`) to swift-log, at trace level under the label
/// `com.hackemist.SDWebImage.flow`, and to observers (the `--trace` printer, the demo, the tests).
///
/// Not in the original, which has no tracing; the layers call `record` where the articles' sequence diagram
/// puts each step, and `mark` where the download operation starts or is cancelled (`SDWebImageFlowMark`). Each
/// event says which queue and thread it ran on (`sdport load --trace` prints them, `sdport diagram` draws them);
/// that costs two C calls per event, made only when someone listens. Observers are held in a dictionary inside a
/// `Mutex`; two atomic counters let the timed places (the decode, the disk query, the transfer thread's loop) ask
/// "is anyone listening?" without taking it, so an untraced run reads no clock for the trace.
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
        /// The observers that also receive work between the steps (a subset of `observers`' keys).
        var workObservers: Set<UInt64> = []
        var nextID: UInt64 = 0
    }
    private static let registry = Mutex(Registry())
    /// How many observers `registry` holds, and how many of them want work; written under its lock, read without.
    private static let observerCount = Atomic<Int>(0)
    private static let workObserverCount = Atomic<Int>(0)

    /// Calls `observer` for every event from now on, on whatever thread reports it; with `includingMarks`, also
    /// for the marks between the steps (`SDWebImageFlowMark`); with `includingWork`, also for the work between
    /// the steps (`SDWebImageTraceEvent.work`).
    @discardableResult
    public static func addObserver(
        includingMarks: Bool = false, includingWork: Bool = false,
        _ observer: @escaping @Sendable (SDWebImageTraceEvent) -> Void
    ) -> Token {
        registry.withLock { registry in
            registry.nextID += 1
            registry.observers[registry.nextID] = observer
            if includingMarks { registry.markObservers.insert(registry.nextID) }
            if includingWork { registry.workObservers.insert(registry.nextID) }
            observerCount.store(registry.observers.count, ordering: .relaxed)
            workObserverCount.store(registry.workObservers.count, ordering: .relaxed)
            return Token(id: registry.nextID)
        }
    }

    /// Stops calling the observer `token` registered.
    public static func removeObserver(_ token: Token) {
        registry.withLock {
            $0.observers[token.id] = nil
            $0.markObservers.remove(token.id)
            $0.workObservers.remove(token.id)
            observerCount.store($0.observers.count, ordering: .relaxed)
            workObserverCount.store($0.workObservers.count, ordering: .relaxed)
        }
    }

    /// The time a timed step begins, or nil when nobody listens (then the step is not timed and costs no clock
    /// read). Pass it to `record(_:key:since:_:)` when the step ends.
    static func stepStart() -> Date? {
        observerCount.load(ordering: .relaxed) > 0 || logger.logLevel <= .trace ? Date() : nil
    }

    /// The time work between the steps begins, or nil when no observer asked for work.
    static func workStart() -> Date? {
        workObserverCount.load(ordering: .relaxed) > 0 ? Date() : nil
    }

    /// Reports one step.
    public static func record(_ step: SDWebImageFlowStep, key: String?, _ detail: @autoclosure () -> String = "") {
        record(step, key: key, since: nil, detail())
    }

    /// Reports one step that began at `start` (from `stepStart()`; nil reports a moment).
    static func record(
        _ step: SDWebImageFlowStep, key: String?, since start: Date?, _ detail: @autoclosure () -> String = ""
    ) {
        let current = registry.withLock { Array($0.observers.values) }
        let wantsLog = logger.logLevel <= .trace
        guard !current.isEmpty || wantsLog else { return }
        let event = makeEvent(step, mark: nil, key: key, detail: detail(), start: start)
        if wantsLog {
            logger.trace(
                "\(step.rawValue). \(step)",
                metadata: [
                    "key": .string(key ?? "-"), "detail": .string(event.detail),
                    "queue": .string(event.queue), "thread": .stringConvertible(event.thread),
                ])
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

    /// Reports work between the steps that began at `start` (from `workStart()`; nothing when it is nil), to the
    /// observers that asked for work only.
    static func work(
        _ name: String, serving step: SDWebImageFlowStep, key: String? = nil, since start: Date?,
        _ detail: @autoclosure () -> String = ""
    ) {
        guard let start else { return }
        let current = registry.withLock { registry in
            registry.workObservers.compactMap { registry.observers[$0] }
        }
        guard !current.isEmpty else { return }
        let event = makeEvent(step, mark: nil, key: key, detail: detail(), start: start, work: name)
        for observer in current { observer(event) }
    }

    /// The event, with where it runs. Only made when someone listens: the queue label and the thread id are two
    /// calls into C (`CQueueLabel`), and `OperationQueue.current` a thread-local read.
    private static func makeEvent(
        _ step: SDWebImageFlowStep, mark: SDWebImageFlowMark?, key: String?, detail: String,
        start: Date? = nil, work: String? = nil
    ) -> SDWebImageTraceEvent {
        var queue = String(cString: sdport_current_queue_label())
        // An operation runs on a queue the OperationQueue makes and names after itself only on some platforms;
        // its own name says which queue the operation belongs to.
        if !Thread.isMainThread, let operationQueue = OperationQueue.current, operationQueue !== OperationQueue.main,
            let name = operationQueue.name, !name.isEmpty
        {
            queue = name
        }
        return SDWebImageTraceEvent(
            step: step, key: key, detail: detail, date: Date(), mark: mark, queue: queue,
            thread: sdport_current_thread_id(), isMainThread: Thread.isMainThread, start: start,
            work: work)
    }
}
