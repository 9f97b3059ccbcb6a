/// The FAQ as Markdown for `Docs/walkthrough/07-faq.md`: one section per question with the answer, the port's
/// `path:line`, the test and the original's method.
enum FAQMarkdown {
    static func render(_ entries: [FAQEntry]) -> String {
        entries.map { entry in
            """
            ### \(entry.parityID) — \(entry.question)

            \(entry.answer)

            - Port: `\(SourceLocator.reference(file: entry.portFile, anchor: entry.portAnchor))`
            - Test: `\(entry.test)`
            - Original (4.4.8): \(entry.original)\(originalLines(OriginalLineTable.citations(for: entry.original)))
            """ + (entry.original5.map { "\n- Original (5.21.5): \($0)\(originalLines(OriginalLineTable.citations5(for: $0)))" } ?? "")
        }.joined(separator: "\n\n")
    }

    /// " — [SDWebImage/File.m:N](link), …" for the symbols the line table knows.
    private static func originalLines(_ citations: [OriginalLineTable.Citation?]) -> String {
        let lines = citations.compactMap { $0 }
        guard !lines.isEmpty else { return "" }
        return " — " + lines.map { "[`\($0.location)`](\($0.link))" }.joined(separator: ", ")
    }
}
