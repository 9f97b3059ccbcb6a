import Foundation
import XCTest

/// `Docs/original-lines.tsv` (made by `scripts/original-lines.py` from SDWebImage 4.4.8) is where every citation
/// of the original gets its file and line: the FAQ's `original:` references and the walkthrough's `{{…}}` markers
/// must name symbols the table has, so a method that 4.4.8 does not have (a 4.0 name, a typo) fails here.
final class OriginalLineTableTests: XCTestCase {
    private static let root = CLIProcess.packageRoot

    /// "File.m symbol" → line, from the table.
    private func lines() throws -> [String: Int] {
        let text = try String(contentsOf: Self.root.appendingPathComponent("Docs/original-lines.tsv"), encoding: .utf8)
        var lines: [String: Int] = [:]
        for row in text.split(separator: "\n") where !row.hasPrefix("#") {
            let fields = row.split(separator: "\t")
            XCTAssertEqual(fields.count, 3, "a row is file, symbol, line: \(row)")
            if fields.count == 3 {
                XCTAssertNotNil(Int(fields[2]), "\(row)")
                lines["\(fields[0]) \(fields[1])"] = Int(fields[2])
            }
        }
        return lines
    }

    private func table() throws -> Set<String> { Set(try lines().keys) }

    /// "File.m -a:, -b:; Other.h name" → ["File.m -a:", "File.m -b:", "Other.h name"].
    private func symbols(_ reference: String) -> [String] {
        reference.split(separator: ";").flatMap { part -> [String] in
            let words = part.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
            guard words.count == 2 else { return [] }
            return words[1].split(separator: ",").map { "\(words[0]) \($0.trimmingCharacters(in: .whitespaces))" }
        }
    }

    /// Every FAQ answer's "Original" line (FAQ-01 to FAQ-17) names methods the table has.
    func test_ORIGINAL_faqReferencesAreInTheTable() throws {
        let keys = try table()
        XCTAssertGreaterThan(keys.count, 500)
        let source = try String(contentsOf: Self.root.appendingPathComponent("Sources/sdport/FAQEntry+All.swift"), encoding: .utf8)
        // `original: "…"` possibly continued with `+ "…"` on the next lines.
        let pattern = try NSRegularExpression(pattern: #"original: ((?:"[^"]*"\s*\+?\s*)+)"#)
        var references: [String] = []
        for match in pattern.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
            guard let range = Range(match.range(at: 1), in: source) else { continue }
            let pieces = source[range].split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            references.append(pieces.joined())
        }
        XCTAssertEqual(references.count, 17, "one reference per FAQ entry")
        for reference in references {
            for symbol in symbols(reference) {
                XCTAssertTrue(keys.contains(symbol), "\(symbol) (from \"\(reference)\") is not in Docs/original-lines.tsv")
            }
        }
    }

    /// Doc comments that cite the original ("At tag 4.4.8: `SDWebImage/File.m:N` (`-selector:`)") name the line
    /// the table gives for that symbol, so a wrong or stale line fails here.
    func test_ORIGINAL_docCommentCitationsMatchTheTable() throws {
        let lines = try lines()
        let citation = try NSRegularExpression(pattern: #"`SDWebImage/([^`:]+):(\d+)` \(`([^`]+)`\)"#)
        let sources = Self.root.appendingPathComponent("Sources/SDPort")
        var checked = 0
        for case let path as String in FileManager.default.enumerator(atPath: sources.path) ?? NSEnumerator() where path.hasSuffix(".swift") {
            let source = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            for line in source.split(separator: "\n") where line.hasPrefix("/// At tag 4.4.8:") {
                let text = String(line)
                for match in citation.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    let part = { (i: Int) in String(text[Range(match.range(at: i), in: text)!]) }
                    XCTAssertEqual(lines["\(part(1)) \(part(3))"], Int(part(2)), "\(path): \(part(1)) \(part(3))")
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 14, "the core types cite the original's lines")
    }

    /// The check can fail: a 4.0–4.2 method 4.4.8 no longer has is not in the table.
    func test_ORIGINAL_aMethodThatIsNotIn448IsMissing() throws {
        let keys = try table()
        XCTAssertTrue(keys.contains("SDWebImageDownloader.m -downloadImageWithURL:options:progress:completed:"))
        XCTAssertFalse(keys.contains("SDWebImageDownloader.m -addProgressCallback:completedBlock:forURL:createCallback:"))
    }
}
