import Foundation

/// What `diagram --check` compares: the lines of a diagram file's ```mermaid block, trimmed, each cut at " · "
/// (where a sequence diagram's arrow text puts the run's details). Lanes, arrows, step names and notes are
/// compared; the table of threads and times below the block, and the text outside it, are not.
struct DiagramStructure: Equatable {
    let lines: [String]

    init(markdown: String) {
        var inBlock = false
        var lines: [String] = []
        for raw in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if !inBlock {
                if line == "```mermaid" { inBlock = true }
                continue
            }
            if line == "```" {
                inBlock = false
                continue
            }
            guard !line.isEmpty else { continue }
            let cut = line.range(of: " · ").map { String(line[..<$0.lowerBound]) } ?? line
            lines.append(cut)
        }
        self.lines = lines
    }

    /// The first difference between `self` (committed) and `generated`, in words; nil when they match.
    func difference(from generated: DiagramStructure) -> String? {
        guard self != generated else { return nil }
        if lines.isEmpty { return "no ```mermaid block" }
        for index in 0..<max(lines.count, generated.lines.count) {
            let committed = index < lines.count ? lines[index] : "(nothing)"
            let fresh = index < generated.lines.count ? generated.lines[index] : "(nothing)"
            if committed != fresh {
                return "line \(index + 1) of the diagram: committed \"\(committed)\", regenerated \"\(fresh)\""
            }
        }
        return "the diagrams differ"
    }
}
