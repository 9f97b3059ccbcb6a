import Foundation
import SDPort

/// Flow events in the Trace Event Format that Perfetto's UI and Chromium's `about:tracing` open as they are: one
/// complete event (`"ph":"X"`, microsecond `ts` and `dur`) per step, mark or stretch of work, and one track per
/// queue or thread, named by metadata events (`"ph":"M"`: `process_name`, `thread_name`, `thread_sort_index`).
/// A step reported as a moment has `dur` 0.
///
/// The viewers draw the events of one track as a stack, so on each track an event either lies inside the one
/// before it or starts after it ends. A thread and a serial queue give that by themselves; a lane that several
/// queues share one label with (every operation's coder queue is "…OperationCoderQueue", each cache's io queue
/// starts with the same label) is split into numbered tracks: "coder queue 1" to "coder queue 6" for the
/// downloader's six, each holding one operation's coder queue at a time, from its first event to its last.
///
/// Not in the original, which has no tracing.
public struct ChromeTrace: Sendable {
    public let events: [TimelineEvent]
    public let processName: String

    public init(events: [TimelineEvent], processName: String) {
        self.events = events
        self.processName = processName
    }

    public init(events: [SDWebImageTraceEvent], processName: String) {
        self.init(events: events.map(TimelineEvent.init), processName: processName)
    }

    /// One event with its place: nanoseconds from the first event, and the lane.
    private struct Placed {
        let event: TimelineEvent
        let lane: TimelineLane
        let start: Int64
        let end: Int64
    }

    /// The trace as a JSON object (`traceEvents`, `displayTimeUnit`).
    public func data() throws -> Data {
        try JSONSerialization.data(withJSONObject: object(), options: [.sortedKeys])
    }

    /// The trace as a JSON-serialisable dictionary.
    public func object() -> [String: Any] {
        let origin = events.map(\.start).min() ?? Date()
        func nanoseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince(origin) * 1e9).rounded()) }
        let placed = events.map { event in
            let end = nanoseconds(event.end)
            return Placed(event: event, lane: TimelineLane(event), start: min(end, nanoseconds(event.start)), end: end)
        }.sorted { ($0.start, -$0.end) < ($1.start, -$1.end) }

        // Tracks per lane; each keeps the ends of the events still open on it (a stack).
        var tracks: [TimelineLane: [[Int64]]] = [:]
        var trackOfEvent: [Int: (TimelineLane, Int)] = [:]
        // A coder queue is one operation's: its events stay together on one track, from its first to its last.
        var coderTrackOfKey: [String: Int] = [:]
        var coderTrackEnds: [Int64] = []
        let coderSpans = Dictionary(grouping: placed.filter { $0.lane == .coderQueue }, by: { $0.event.key ?? "" })
            .mapValues { group in (group.map(\.start).min()!, group.map(\.end).max()!) }
        for (index, item) in placed.enumerated() {
            if item.lane == .coderQueue {
                let key = item.event.key ?? ""
                if coderTrackOfKey[key] == nil {
                    let span = coderSpans[key]!
                    let free = coderTrackEnds.firstIndex { $0 < span.0 } ?? coderTrackEnds.count
                    if free == coderTrackEnds.count {
                        coderTrackEnds.append(span.1)
                    } else {
                        coderTrackEnds[free] = span.1
                    }
                    coderTrackOfKey[key] = free
                }
                trackOfEvent[index] = (.coderQueue, coderTrackOfKey[key]!)
                continue
            }
            var stacks = tracks[item.lane] ?? []
            var chosen = stacks.count
            for (number, stack) in stacks.enumerated() {
                let open = stack.filter { $0 > item.start }
                if open.last.map({ item.end <= $0 }) ?? true {
                    chosen = number
                    break
                }
            }
            if chosen == stacks.count { stacks.append([]) }
            stacks[chosen] = stacks[chosen].filter { $0 > item.start } + [item.end]
            tracks[item.lane] = stacks
            trackOfEvent[index] = (item.lane, chosen)
        }
        var trackCounts = tracks.mapValues(\.count)
        if !coderTrackEnds.isEmpty { trackCounts[.coderQueue] = coderTrackEnds.count }

        // Track ids: lanes in their order, numbered tracks within a lane.
        var tid: [TimelineLane: [Int]] = [:]
        var metadata: [[String: Any]] = [
            ["ph": "M", "pid": 1, "tid": 0, "name": "process_name", "args": ["name": processName]]
        ]
        var next = 1
        for lane in trackCounts.keys.sorted() {
            let count = trackCounts[lane]!
            tid[lane] = Array(next..<(next + count))
            for number in 0..<count {
                let name = count > 1 || lane == .coderQueue ? "\(lane.title) \(number + 1)" : lane.title
                metadata.append(["ph": "M", "pid": 1, "tid": next, "name": "thread_name", "args": ["name": name]])
                metadata.append([
                    "ph": "M", "pid": 1, "tid": next, "name": "thread_sort_index", "args": ["sort_index": next],
                ])
                next += 1
            }
        }

        var traceEvents = metadata
        for (index, item) in placed.enumerated() {
            let (lane, number) = trackOfEvent[index]!
            let event = item.event
            var args: [String: Any] = ["step": event.step, "queue": event.queue, "thread": event.thread]
            if let key = event.key { args["key"] = key }
            if !event.detail.isEmpty { args["detail"] = event.detail }
            traceEvents.append([
                "ph": "X", "pid": 1, "tid": tid[lane]![number], "name": event.name, "cat": event.category,
                "ts": Double(item.start) / 1000, "dur": Double(item.end - item.start) / 1000, "args": args,
            ])
        }
        return ["traceEvents": traceEvents, "displayTimeUnit": "ms"]
    }
}
