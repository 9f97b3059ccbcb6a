import Foundation
import SDPortTestSupport
import XCTest

@testable import sdport

/// `Docs/knowledge/original-lines.tsv` (made by `scripts/original-lines.py` from SDWebImage 4.4.8) is where every citation
/// of the original gets its file and line: the FAQ's `original:` references and the walkthrough's `{{…}}` markers
/// must name symbols the table has, so a method that 4.4.8 does not have (a 4.0 name, a typo) fails here.
final class OriginalLineTableTests: XCTestCase {
    private static let root = CLIProcess.packageRoot

    /// "File.m symbol" → line, from the 4.4.8 table, or from another (`Docs/knowledge/original-lines-5.21.5.tsv`).
    private func lines(_ table: String = "Docs/knowledge/original-lines.tsv") throws -> [String: Int] {
        let text = try String(contentsOf: Self.root.appendingPathComponent(table), encoding: .utf8)
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

    /// Every FAQ answer's "Original" line (FAQ-01 to FAQ-17, from its parity ID in `Docs/knowledge/parity/`) names
    /// methods the table has.
    func test_ORIGINAL_faqReferencesAreInTheTable() throws {
        let keys = try table()
        XCTAssertGreaterThan(keys.count, 500)
        let references = try Knowledge.load().faq.map(\.original)
        XCTAssertEqual(references.filter { !$0.isEmpty }.count, 17, "one reference per FAQ entry")
        for reference in references {
            for symbol in symbols(reference) {
                XCTAssertTrue(
                    keys.contains(symbol),
                    "\(symbol) (from \"\(reference)\") is not in Docs/knowledge/original-lines.tsv")
            }
        }
    }

    /// FAQ answers that say how 5.x differs ("5.x moves …", "5.1+ sends …", "5.2.0+ makes …") carry an `original5` reference, and
    /// each of its symbols is in `Docs/knowledge/original-lines-5.21.5.tsv`, so `sdport faq` can print the 5.21.5 line.
    func test_ORIGINAL_faq5xReferencesAreInThe5xTable() throws {
        let table = try lines("Docs/knowledge/original-lines-5.21.5.tsv")
        // "5.x", "5.1+", "5.2.0+".
        let mentions5x = try NSRegularExpression(pattern: #"\b5\.(x|\d+(\.\d+)*\+)"#)
        let entries = try Knowledge.load().faq
        XCTAssertEqual(entries.count, 17)
        var references = 0
        for entry in entries {
            // The answer, not the question card (its versions row names 5.x for every entry).
            let answer = entry.answer
            XCTAssertEqual(
                entry.original5 != nil,
                mentions5x.firstMatch(in: answer, range: NSRange(answer.startIndex..., in: answer)) != nil,
                "\(entry.parityID): an answer that says how 5.x differs has an original5 reference, and only such an answer"
            )
            guard let reference = entry.original5 else { continue }
            references += 1
            for symbol in symbols(reference) {
                XCTAssertNotNil(
                    table[symbol],
                    "\(symbol) (from \"\(reference)\") is not in Docs/knowledge/original-lines-5.21.5.tsv")
            }
        }
        XCTAssertGreaterThanOrEqual(references, 5, "FAQ-01, 04, 12, 16 and 17 say how 5.x differs")
    }

    /// Doc comments that cite the original ("At tag 4.4.8: `SDWebImage/File.m:N` (`-selector:`)") name the line
    /// the table gives for that symbol, so a wrong or stale line fails here. The minimum is the number of citations
    /// written, so deleting some fails too.
    func test_ORIGINAL_docCommentCitationsMatchTheTable() throws {
        let checked = try checkDocCommentCitations(tag: "4.4.8", table: lines())
        XCTAssertGreaterThanOrEqual(checked.lines, 102, "doc blocks that cite the original at 4.4.8")
        XCTAssertGreaterThanOrEqual(checked.citations, 151, "symbols cited at 4.4.8")
    }

    /// The same for "At tag 5.21.5: `SDWebImage/Core/File.m:N` (`-selector:`)", checked against
    /// `Docs/knowledge/original-lines-5.21.5.tsv` (`scripts/original-lines.py … --tag 5.21.5`): where 5.x differs, and for
    /// the 5.x layer (context, loaders, transformers, 5.x options, errors and cache types).
    func test_ORIGINAL_docComment5xCitationsMatchThe5xTable() throws {
        let table = try lines("Docs/knowledge/original-lines-5.21.5.tsv")
        XCTAssertGreaterThan(table.count, 2000)
        XCTAssertEqual(table["Core/SDWebImageManager.m -loadImageWithURL:options:context:progress:completed:"], 189)
        let checked = try checkDocCommentCitations(tag: "5.21.5", table: table)
        XCTAssertGreaterThanOrEqual(checked.lines, 71, "doc blocks that cite the original at 5.21.5")
        XCTAssertGreaterThanOrEqual(checked.citations, 97, "symbols cited at 5.21.5")
    }

    /// Every line of Sources/SDPort starting "/// At tag <tag>:" checked against `table`; the number of such lines
    /// and of citations in them.
    private func checkDocCommentCitations(tag: String, table: [String: Int]) throws -> (lines: Int, citations: Int) {
        let citation = try NSRegularExpression(pattern: #"`SDWebImage/([^`:]+):(\d+)` \(`([^`]+)`\)"#)
        var lines = 0
        var citations = 0
        for (path, source) in try portSources() {
            for line in source.split(separator: "\n") where line.hasPrefix("/// At tag \(tag):") {
                let text = String(line)
                let matches = citation.matches(in: text, range: NSRange(text.startIndex..., in: text))
                XCTAssertFalse(matches.isEmpty, "\(path): a citation line without a citation: \(text)")
                lines += 1
                for match in matches {
                    let part = { (i: Int) in String(text[Range(match.range(at: i), in: text)!]) }
                    XCTAssertEqual(
                        table["\(part(1)) \(part(3))"], Int(part(2)), "\(path): \(part(1)) \(part(3)) at tag \(tag)")
                    citations += 1
                }
            }
        }
        return (lines, citations)
    }

    /// Doc blocks that may name an original file without citing its lines, and why.
    private static let uncitedDocBlocks: [String: String] = [:]

    /// Every doc comment of a top-level declaration in Sources/SDPort (a type, an extension, a typealias, a
    /// function, a constant) that names a file of the original (`SDImageCache.m`, `UIView+WebCache.m`) carries an
    /// "At tag 4.4.8:" or "At tag 5.21.5:" line in the same block, so the reader is one hop from the original.
    func test_ORIGINAL_docBlocksNamingAnOriginalFileCiteItsLines() throws {
        let file = try NSRegularExpression(pattern: #"\b[A-Z]\w*(\+\w+)?\.m\b"#)
        var naming = 0
        var uncited: [String] = []
        for (path, source) in try portSources() {
            let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var index = 0
            while index < lines.count {
                guard lines[index].hasPrefix("///") else {
                    index += 1
                    continue
                }
                var end = index
                while end < lines.count, lines[end].hasPrefix("///") { end += 1 }
                let block = Array(lines[index..<end])
                var declaration = end
                while declaration < lines.count, lines[declaration].hasPrefix("@") { declaration += 1 }
                // Only blocks of top-level declarations (not indented members, not a block before a blank line).
                let topLevel =
                    declaration < lines.count && !lines[declaration].isEmpty
                    && !lines[declaration].first!.isWhitespace && !lines[declaration].hasPrefix("//")
                let text = block.filter { !$0.hasPrefix("/// At tag") }.joined(separator: "\n")
                if topLevel, file.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil {
                    naming += 1
                    let cited = block.contains {
                        $0.hasPrefix("/// At tag 4.4.8:") || $0.hasPrefix("/// At tag 5.21.5:")
                    }
                    let name = "\(path): \(lines[declaration].prefix(80))"
                    if !cited, Self.uncitedDocBlocks[path] == nil { uncited.append(name) }
                }
                index = end
            }
        }
        XCTAssertGreaterThanOrEqual(naming, 45, "doc blocks naming an original .m file")
        XCTAssertEqual(uncited, [], "doc blocks that name an original .m file but cite no line")
    }

    /// The port's sources (Sources/SDPort), path relative to it → text.
    private func portSources() throws -> [(String, String)] {
        let sources = Self.root.appendingPathComponent("Sources/SDPort")
        var result: [(String, String)] = []
        for case let path as String in FileManager.default.enumerator(atPath: sources.path) ?? NSEnumerator()
        where path.hasSuffix(".swift") {
            result.append((path, try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)))
        }
        XCTAssertGreaterThan(result.count, 100)
        return result.sorted { $0.0 < $1.0 }
    }

    /// The check can fail: a 4.0–4.2 method 4.4.8 no longer has is not in the table.
    func test_ORIGINAL_aMethodThatIsNotIn448IsMissing() throws {
        let keys = try table()
        XCTAssertTrue(keys.contains("SDWebImageDownloader.m -downloadImageWithURL:options:progress:completed:"))
        XCTAssertFalse(
            keys.contains("SDWebImageDownloader.m -addProgressCallback:completedBlock:forURL:createCallback:"))
    }
}
