import Foundation
import SDPort

/// Draws one scenario's trace events as a Mermaid sequence diagram: one lane per queue (`TraceLane`), one arrow
/// per step or mark, from the lane of the step before it to the lane it ran on.
///
/// The events are drawn in flow order: by step number (a mark right after its step), then by the time they were
/// reported. For one caller that is the order they happened in; for two callers it keeps the drawing the same
/// from run to run, because two callers' steps on different queues have no fixed order between them.
/// Below the diagram, a table gives each arrow's thread and time, which change from run to run; the structure
/// check (`DiagramStructure`) ignores them, and everything after " · " in an arrow's text.
struct SequenceDiagram {
    let scenario: DiagramScenario
    let events: [SDWebImageTraceEvent]

    /// The events in flow order.
    var ordered: [SDWebImageTraceEvent] {
        events.enumerated().sorted { left, right in
            let (a, b) = (Self.rank(left.element), Self.rank(right.element))
            if a != b { return a < b }
            if left.element.date != right.element.date { return left.element.date < right.element.date }
            return left.offset < right.offset
        }.map(\.element)
    }

    private static func rank(_ event: SDWebImageTraceEvent) -> Int {
        let sub: Int
        switch event.mark {
        case nil: sub = 0
        case .operationStart?: sub = 1
        case .operationCancel?: sub = 2
        }
        return event.step.rawValue * 10 + sub
    }

    /// The lanes drawn: the six queues always (an empty lane says the queue takes no part), and `other` only
    /// when a step ran elsewhere.
    var lanes: [TraceLane] {
        let used = Set(events.map(TraceLane.init))
        return TraceLane.allCases.filter { $0 != .other || used.contains(.other) }
    }

    var markdown: String {
        let steps = ordered
        var lines = DiagramFile.header(title: scenario.title, command: "sdport diagram \(scenario.rawValue)")
        lines.append(
            "What the caller does: " + scenario.setup.joined(separator: "; ") + ". Solid arrows are the "
                + "ten steps of the flow (`SDWebImageFlowStep`), dashed ones the operation's marks "
                + "(`SDWebImageFlowMark`); each arrow goes from the queue of the step before to the queue the "
                + "step ran on.")
        lines.append("")
        lines.append("```mermaid")
        lines.append("sequenceDiagram")
        for lane in lanes {
            lines.append("    participant \(lane.rawValue) as \(lane.title)")
        }
        for note in scenario.setup {
            lines.append("    Note over main: caller: \(DiagramFile.escape(note))")
        }
        var previous = TraceLane.main
        for event in steps {
            let lane = TraceLane(event)
            let arrow = event.mark == nil ? "->>" : "-->>"
            var text = Self.name(of: event)
            if !event.detail.isEmpty { text += " · " + Self.detail(of: event) }
            lines.append("    \(previous.rawValue)\(arrow)\(lane.rawValue): \(DiagramFile.escape(text))")
            previous = lane
        }
        if steps.isEmpty { lines.append("    Note over main: no step was reported") }
        lines.append("```")
        lines.append("")
        lines.append("The run this was drawn from (threads and times change from run to run; the check ignores them):")
        lines.append("")
        lines.append("| step | queue label | thread | ms after the first step |")
        lines.append("|---|---|---|---|")
        let start = steps.map(\.date).min() ?? Date()
        for event in steps {
            let thread = event.isMainThread ? "main thread" : "\(event.thread)"
            let label = event.queue.isEmpty ? "(none)" : "`\(event.queue)`"
            lines.append(
                "| \(Self.name(of: event)) | \(label) | \(thread) | "
                    + String(format: "%.2f", event.date.timeIntervalSince(start) * 1000) + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func name(of event: SDWebImageTraceEvent) -> String {
        if let mark = event.mark { return "(5) \(mark)" }
        return "\(event.step.rawValue). \(event.step)"
    }

    /// The detail without what changes from run to run (the loopback server's port).
    private static func detail(of event: SDWebImageTraceEvent) -> String {
        event.detail.replacingOccurrences(of: #"127\.0\.0\.1:\d+"#, with: "127.0.0.1", options: .regularExpression)
            .replacingOccurrences(of: #"localhost:\d+"#, with: "localhost", options: .regularExpression)
    }
}
