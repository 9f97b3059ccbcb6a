import Foundation

/// The FAQ as Markdown for `Docs/walkthrough/07-faq.md` (and, through it, the DocC card pages): one question card
/// per entry — the 30-second answer first, then the follow-ups, each linked to its deciding line at its version,
/// then the detail: the answer in one line, the full answer, the trap, the versions, the 4.4.8 lines that decide it, the port's file and symbol (a citation marker that resolve.py resolves), the command
/// that runs its tests and its drill with the failure to expect. After a line `<!-- MYTHS -->` it prints the
/// myths page (`MythMarkdown`), which `resolve.py` puts into `10-myths-and-versions.md`.
enum FAQMarkdown {
    static func render(_ entries: [FAQEntry]) -> String {
        entries.map { entry in
            var lines = ["### \(entry.parityID) — \(entry.question)", ""]
            if let short = entry.short { lines += ["**In 30 seconds:** \(short)", ""] }
            if !entry.followUps.isEmpty {
                lines += ["**Follow-ups:**", ""]
                for (index, followUp) in entry.followUps.enumerated() {
                    lines.append(
                        "\(index + 1). **\(followUp.question)** \(followUp.answer) — "
                            + "[`\(followUp.original.file):\(followUp.original.lines)` at \(followUp.original.tag)](\(followUp.original.link))"
                    )
                }
                lines.append("")
            }
            if let oneLine = entry.oneLine { lines += ["**In one line:** \(oneLine)", ""] }
            lines += [entry.answer, ""]
            if let trap = entry.trap { lines.append("- **The trap:** \(trap)") }
            if let versions = entry.versions { lines.append("- **Versions:** \(versions)") }
            if let deciding = entry.deciding {
                lines.append("- **Decided in 4.4.8 at:** " + links(OriginalLineTable.decidingCitations(for: deciding)))
            }
            lines.append(
                "- **Original (4.4.8):** \(entry.original)\(originalLines(OriginalLineTable.citations(for: entry.original)))"
            )
            if let original5 = entry.original5 {
                lines.append(
                    "- **Original (5.21.5):** \(original5)\(originalLines(OriginalLineTable.citations5(for: original5)))"
                )
            }
            // A citation marker: Docs/walkthrough/src/resolve.py names the file and the symbol, with no line number.
            lines.append("- **Port:** [[\(entry.port.file)#\(entry.port.anchor)]]")
            lines.append(
                "- **Tests:** " + entry.tests.map { "`\($0)`" }.joined(separator: ", ")
                    + " — run them: `swift test --disable-swift-testing --filter \(entry.testFilter)`")
            if let drill = entry.drill {
                var text =
                    "- **Drill:** `swift run sdport drill \(entry.number)` breaks \(drill.kind == "mechanism" ? "how it works" : "a value")"
                    + " in a scratch copy: \(drill.file): `\(drill.find)` → `\(drill.replace)`."
                if let predict = drill.predict { text += " Predict first: \(predict)" }
                if let expect = drill.expect { text += " Expect: \(expect)" }
                lines.append(text)
            }
            if let topic = entry.topic { lines.append("- **Topic:** \(topic)") }
            return lines.joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    /// "[`symbol` — `SDWebImage/File.m:N`](link), …"; a citation that does not resolve shows as "(unresolved)".
    static func links(_ citations: [OriginalLineTable.Citation?]) -> String {
        citations.map { citation in
            citation.map { "[`\($0.symbol)` — `\($0.location)`](\($0.link))" } ?? "(unresolved)"
        }.joined(separator: ", ")
    }

    /// " — [SDWebImage/File.m:N](link), …" for the symbols the line table knows.
    private static func originalLines(_ citations: [OriginalLineTable.Citation?]) -> String {
        let lines = citations.compactMap { $0 }
        guard !lines.isEmpty else { return "" }
        return " — " + lines.map { "[`\($0.location)`](\($0.link))" }.joined(separator: ", ")
    }
}
