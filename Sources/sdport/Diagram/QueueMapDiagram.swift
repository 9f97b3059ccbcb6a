import Foundation
import SDPort

/// The queue map: every queue of the flow with its label, and each hand-over between queues that the six
/// scenarios (and one load with a cache serializer, the global queue's only step) made, labelled by the step that
/// ran on the receiving queue. Drawn from the same runs as the sequence diagrams.
struct QueueMapDiagram {
    /// The scenarios' events, in scenario order, each list in flow order.
    let runs: [(name: String, events: [SDWebImageTraceEvent])]

    var markdown: String {
        var lines = DiagramFile.header(title: "The queue map", command: "sdport diagram queue-map")
        lines.append(
            "Each box is a queue (its label as `dispatch_queue_get_label` reports it); each arrow a hand-over "
                + "seen in a real run, named by the step that ran on the queue it points to. A step that stays on "
                + "its queue is listed inside the box. Made from the six scenarios' runs plus one load through a "
                + "manager with a `cacheSerializer` (the global queue's hop).")
        lines.append("")
        lines.append("```mermaid")
        lines.append("flowchart LR")
        var inside: [TraceLane: [String]] = [:]
        var edges: [(from: TraceLane, to: TraceLane, step: String)] = []
        for run in runs {
            var previous = TraceLane.main
            for event in run.events {
                let lane = TraceLane(event)
                let name = SequenceDiagram.name(of: event)
                if lane == previous {
                    if !(inside[lane] ?? []).contains(name) { inside[lane, default: []].append(name) }
                } else if !edges.contains(where: { $0.from == previous && $0.to == lane && $0.step == name }) {
                    edges.append((previous, lane, name))
                }
                previous = lane
            }
        }
        let used = Set(runs.flatMap { $0.events.map(TraceLane.init) })
        for lane in TraceLane.allCases where lane != .other || used.contains(.other) {
            var label = "<b>\(lane.title)</b><br/>\(lane.label)"
            for step in inside[lane] ?? [] { label += "<br/>" + DiagramFile.escape(step) }
            lines.append("    \(lane.rawValue)[\"\(label)\"]")
        }
        for edge in edges {
            lines.append("    \(edge.from.rawValue) -->|\"\(DiagramFile.escape(edge.step))\"| \(edge.to.rawValue)")
        }
        lines.append("```")
        lines.append("")
        lines.append(
            "Where each queue is made: the main queue is the process's; the io queue in `SDImageCache.init`; "
                + "the download queue (an `OperationQueue` named `com.hackemist.SDWebImageDownloader`, whose "
                + "operations start on threads of its underlying dispatch queue) in `SDWebImageDownloader.init`; "
                + "one coder queue per `SDWebImageDownloaderOperation`; the delegate queue per curl session; the "
                + "global queue is `DispatchQueue.global(qos: .userInitiated)`.")
        return lines.joined(separator: "\n") + "\n"
    }
}
