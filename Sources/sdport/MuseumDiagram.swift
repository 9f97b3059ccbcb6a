import Foundation
import SDPort

/// A sequence diagram of one side of a museum exhibit, drawn from a real run: the trace events of the exhibit's
/// URLs (one lane per queue, as `SequenceDiagram`) merged in time order with what the caller did (notes on the
/// main lane), ending with what came of it. `scripts/museum.sh diagrams` draws each exhibit twice, with the port as
/// it is and with the patched copy's `sdport`, into `Docs/diagrams/mus-NN-<side>.md`.
struct MuseumDiagram {
    let exhibit: MuseumExhibit
    /// "faithful" or "fixed".
    let side: String
    let events: [SDWebImageTraceEvent]
    /// What the caller did, with when.
    let notes: [(date: Date, text: String)]
    /// What came of it, one line each.
    let outcome: [String]

    var name: String { "\(exhibit.id.lowercased())-\(side)" }

    var markdown: String {
        var lines = DiagramFile.header(title: "\(exhibit.id), \(side) side: \(exhibit.title)",
                                       command: "scripts/museum.sh diagrams")
        lines.append("Drawn from a real run of the \(side) side (`sdport museum \(exhibit.number) --diagram`). Notes on the main "
                     + "lane are what the caller did; solid arrows are flow steps, dashed ones the operation's marks, each "
                     + "from the queue of the event before to the queue it ran on, in the order they happened.")
        lines.append("")
        lines.append("```mermaid")
        lines.append("sequenceDiagram")
        let used = Set(events.map(TraceLane.init))
        for lane in TraceLane.allCases where lane == .main || used.contains(lane) {
            lines.append("    participant \(lane.rawValue) as \(lane.title)")
        }
        enum Item { case note(String), event(SDWebImageTraceEvent) }
        let items = (notes.map { ($0.date, Item.note($0.text)) } + events.map { ($0.date, Item.event($0)) })
            .enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element.1)
        var previous = TraceLane.main
        for item in items {
            switch item {
            case .note(let text):
                lines.append("    Note over main: caller: \(DiagramFile.escape(text))")
            case .event(let event):
                let lane = TraceLane(event)
                let arrow = event.mark == nil ? "->>" : "-->>"
                var text = SequenceDiagram.name(of: event)
                if let key = event.key, let path = URL(string: key)?.path { text += " · \(path)" }
                lines.append("    \(previous.rawValue)\(arrow)\(lane.rawValue): \(DiagramFile.escape(text))")
                previous = lane
            }
        }
        for line in outcome { lines.append("    Note over main: result: \(DiagramFile.escape(line))") }
        lines.append("```")
        lines.append("")
        return lines.joined(separator: "\n")
    }
}
