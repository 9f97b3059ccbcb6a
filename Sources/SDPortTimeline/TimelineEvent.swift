import Foundation
import SDPort

/// One event of a timeline: a step, a mark or a stretch of work, where it ran and when it began and ended (the same
/// moment for a step reported as a moment). Made from an `SDWebImageTraceEvent`, or directly (a test can place
/// events where it wants them). Not in the original, which has no tracing.
public struct TimelineEvent: Sendable {
    /// The step (1 to 10) the event is or serves.
    public let step: Int
    /// The name drawn: "7. coder: decode", "operation: start", "libcurl".
    public let name: String
    /// "step", "mark" or "work".
    public let category: String
    public let key: String?
    public let detail: String
    /// The label of the queue it ran on ("" for none).
    public let queue: String
    public let thread: UInt64
    public let isMainThread: Bool
    public let start: Date
    public let end: Date

    public init(
        step: Int, name: String, category: String, key: String?, detail: String = "", queue: String,
        thread: UInt64, isMainThread: Bool = false, start: Date, end: Date
    ) {
        self.step = step
        self.name = name
        self.category = category
        self.key = key
        self.detail = detail
        self.queue = queue
        self.thread = thread
        self.isMainThread = isMainThread
        self.start = start
        self.end = end
    }

    public init(_ event: SDWebImageTraceEvent) {
        let name: String
        let category: String
        if let work = event.work {
            (name, category) = (work, "work")
        } else if let mark = event.mark {
            (name, category) = (mark.description, "mark")
        } else {
            (name, category) = ("\(event.step.rawValue). \(event.step)", "step")
        }
        self.init(
            step: event.step.rawValue, name: name, category: category, key: event.key, detail: event.detail,
            queue: event.queue, thread: event.thread, isMainThread: event.isMainThread,
            start: min(event.start ?? event.date, event.date), end: event.date)
    }
}
