import Foundation

/// The myths page as Markdown (`Docs/walkthrough/10-myths-and-versions.md`, after `<!-- MYTHS -->` in the output
/// of `sdport faq --markdown`): one section per `Myth`, with the belief, where it was read, the versions in which it
/// held (and a link to that older line), what 4.4.8 does with the lines that decide it, and the port's test.
enum MythMarkdown {
    static let repository = "https://github.com/SDWebImage/SDWebImage/blob/"

    /// An article key ("A1") as a link to the list of articles; any other source ("blog posts") as it is.
    static func sourceText(_ source: String) -> String {
        source.range(of: #"^A[0-9]+$"#, options: .regularExpression) != nil
            ? "article [\(source)](../articles.md)" : source
    }

    static func render(_ myths: [Myth]) -> String {
        myths.map { myth in
            var lines = [
                "### \(myth.id) (\(myth.topic))", "",
                "- **The belief:** \(myth.belief) (read in \(sourceText(myth.source)))",
                "- **True in:** \(myth.trueIn)" + (myth.then.flatMap(olderLink).map { " — \($0)" } ?? ""),
                "- **4.4.8:** \(myth.truth)",
                "- **Decided at:** " + FAQMarkdown.links(OriginalLineTable.decidingCitations(for: myth.original)),
            ]
            let name = myth.test.split(separator: ".").last.map(String.init) ?? myth.test
            lines.append("- **The port's test:** `\(name)` (`\(myth.test)`)")
            return lines.joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    /// "4.2.0 SDWebImageDownloader.m:83" → a Markdown link to that line at that tag; nil if malformed.
    static func olderLink(_ reference: String) -> String? {
        let words = reference.split(separator: " ")
        guard words.count == 2, let colon = words[1].lastIndex(of: ":"),
            let line = Int(words[1][words[1].index(after: colon)...])
        else { return nil }
        let tag = words[0]
        let file = words[1][..<colon]
        return "[`SDWebImage/\(file):\(line)` at \(tag)](\(repository)\(tag)/SDWebImage/\(file)#L\(line))"
    }
}
