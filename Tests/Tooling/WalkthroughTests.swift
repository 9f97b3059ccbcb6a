import Foundation
import SDPortTestSupport
import XCTest

@testable import sdport

/// Keeps `Docs/walkthrough/` and `CONTRIBUTING.md` honest: every test they name exists, every `path:line` they
/// cite points into an existing file, and the FAQ chapter carries all 17 questions of `sdport faq`.
final class WalkthroughTests: XCTestCase {
    private static let root = CLIProcess.packageRoot
    private static let walkthrough = root.appendingPathComponent("Docs/walkthrough")

    /// The Markdown files checked: every chapter, and CONTRIBUTING.md.
    private func documents() throws -> [URL] {
        let chapters = try FileManager.default.contentsOfDirectory(
            at: Self.walkthrough, includingPropertiesForKeys: nil
        )
        .filter { $0.pathExtension == "md" }
        .sorted { $0.lastPathComponent < $1.lastPathComponent }
        return chapters + [Self.root.appendingPathComponent("CONTRIBUTING.md")]
    }

    /// Every `func test_...(` under Tests/.
    private func testNamesUnderTests() throws -> Set<String> {
        var names = Set<String>()
        let tests = Self.root.appendingPathComponent("Tests")
        let walker = try XCTUnwrap(FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil))
        for case let file as URL in walker where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in matches(of: #"func (test_[A-Za-z0-9_]+)\s*\("#, in: text) { names.insert(match) }
        }
        return names
    }

    private func matches(of pattern: String, in text: String, group: Int = 1) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: group), in: text).map { String(text[$0]) }
        }
    }

    func test_WALK_chaptersExist() throws {
        let names = Set(try documents().map(\.lastPathComponent))
        for chapter in [
            "00-overview.md", "01-view-binding.md", "02-manager.md", "03-cache.md", "04-downloader.md",
            "05-operation.md", "06-coders.md", "07-faq.md", "08-linux-differences.md", "CONTRIBUTING.md",
        ] {
            XCTAssertTrue(names.contains(chapter), "missing \(chapter)")
        }
    }

    func test_WALK_everyTestNamedInTheWalkthroughExists() throws {
        let existing = try testNamesUnderTests()
        XCTAssertGreaterThan(existing.count, 50, "the test scan found too few tests to be right")
        var mentionedCount = 0
        for document in try documents() {
            let text = try String(contentsOf: document, encoding: .utf8)
            // A name cut by "…" is a prefix ("test_MUS07_…", the exhibit's tests), not a test.
            for name in Set(matches(of: #"\b(test_[A-Za-z0-9_]+)(?![A-Za-z0-9_…])"#, in: text)) {
                mentionedCount += 1
                XCTAssertTrue(
                    existing.contains(name),
                    "\(document.lastPathComponent) names \(name), which no file under Tests/ defines")
            }
        }
        XCTAssertGreaterThan(mentionedCount, 40, "the walkthrough should name the tests behind its claims")
    }

    func test_WALK_everyPathAndLineItCitesExists() throws {
        var cited = 0
        for document in try documents() {
            let text = try String(contentsOf: document, encoding: .utf8)
            let pattern = #"((?:Sources|Tests|Benchmarks|scripts)/[A-Za-z0-9_+@./-]+\.(?:swift|c|h|sh|py)):([0-9]+)"#
            guard let regex = try? NSRegularExpression(pattern: pattern) else { continue }
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let pathRange = Range(match.range(at: 1), in: text),
                    let lineRange = Range(match.range(at: 2), in: text),
                    let line = Int(text[lineRange])
                else { continue }
                cited += 1
                let path = String(text[pathRange])
                let file = Self.root.appendingPathComponent(path)
                guard let source = try? String(contentsOf: file, encoding: .utf8) else {
                    XCTFail("\(document.lastPathComponent) cites \(path):\(line), but \(path) does not exist")
                    continue
                }
                let lineCount = source.split(separator: "\n", omittingEmptySubsequences: false).count
                XCTAssertTrue(
                    line >= 1 && line <= lineCount,
                    "\(document.lastPathComponent) cites \(path):\(line), but the file has \(lineCount) lines")
            }
        }
        // Port citations name a file and a symbol, linked to the file (no line number): each linked file exists.
        for document in try documents() {
            let text = try String(contentsOf: document, encoding: .utf8)
            for path in Set(
                matches(
                    of: #"\]\((?:\.\./\.\./)?((?:Sources|Tests|Benchmarks|scripts)/[A-Za-z0-9_+@./-]+)\)"#, in: text))
            {
                cited += 1
                XCTAssertTrue(
                    FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path),
                    "\(document.lastPathComponent) links \(path), which does not exist")
            }
        }
        XCTAssertGreaterThan(cited, 20, "the walkthrough should cite the code it describes")
    }

    func test_WALK_faqChapterHasEveryQuestionOfSdportFAQ() throws {
        let generated = try CLIProcess.run(["faq", "--markdown"])
        XCTAssertEqual(generated.status, 0, generated.stderr)
        let headings = generated.stdoutLines.filter { $0.hasPrefix("### FAQ-") }
        XCTAssertEqual(headings.count, 17)
        let chapter = try String(contentsOf: Self.walkthrough.appendingPathComponent("07-faq.md"), encoding: .utf8)
        for heading in headings {
            XCTAssertTrue(
                chapter.contains(heading),
                "07-faq.md lacks \(heading); regenerate it with `swift run sdport faq --markdown`")
        }
        // Each card shows its 30-second answer right under its heading, then its follow-ups with their deciding lines,
        // then the detail, in the chapter as in the command.
        for entry in FAQEntry.all {
            let card = try XCTUnwrap(
                chapter.components(separatedBy: "### \(entry.parityID) — ").dropFirst().first, entry.parityID)
            XCTAssertTrue(
                card.contains("\n\n**In 30 seconds:** \(entry.short ?? "?")\n\n**Follow-ups:**\n\n1. **"),
                entry.parityID)
            for followUp in entry.followUps {
                XCTAssertTrue(
                    card.contains(
                        "**\(followUp.question)** \(followUp.answer) — [`\(followUp.original.file):"
                            + "\(followUp.original.lines)` at \(followUp.original.tag)](\(followUp.original.link))"),
                    "\(entry.parityID): \(followUp.question)")
            }
            let order = ["**In 30 seconds:**", "**Follow-ups:**", "**In one line:**"].map {
                card.range(of: $0)?.lowerBound
            }
            XCTAssertFalse(order.contains(nil), entry.parityID)
            XCTAssertEqual(order.compactMap { $0 }, order.compactMap { $0 }.sorted(), entry.parityID)
        }
        // The FAQ's tests, as the command prints them, exist too.
        let existing = try testNamesUnderTests()
        for name in Set(matches(of: #"\b(test_[A-Za-z0-9_]+)"#, in: generated.stdout)) {
            XCTAssertTrue(existing.contains(name), "sdport faq names \(name), which no file under Tests/ defines")
        }
    }

    /// Runs `python3 -c code` in the package root with `scripts/` importable; returns its stdout.
    private func python(_ code: String) throws -> String {
        let result = try CLIProcess.runPython(
            ["-c", "import sys; sys.path.insert(0, 'scripts')\n" + code], in: Self.root)
        XCTAssertEqual(result.status, 0, "python3 failed")
        return result.stdout
    }

    /// An excerpt is cut from the sources each time the docs are made: one whose first or last text is gone from the
    /// file is a problem (so `resolve.py --check` fails), and a good one is the file's lines between the two texts.
    func test_WALK_excerptsAreCutFromTheSourcesAndStaleOnesFail() throws {
        let out = try python(
            """
            import citations
            problems = []
            citations.excerpt('.', 'Package.swift', 'no line holds this text', 'x', problems.append, '../../')
            print(len(problems))
            good = citations.excerpt('.', 'Package.swift', 'name: "SDPort"', ')', problems.append, '../../')
            print(len(problems), good.count('```'), 'name: "SDPort"' in good, '(../../Package.swift)' in good, '#L' in good)
            """)
        XCTAssertEqual(
            out.split(separator: "\n").map(String.init), ["1", "1 2 True True False"],
            "an excerpt is headed by a link to its file, with no line number")
    }

    /// The leftover check of `resolve.py --check` (`citations.leftovers`) sees a marker whose text holds brackets,
    /// the kind that slipped through before (`loadImage(with url: URL?, options: SDWebImageOptions = [],`), and the
    /// port-citation pattern resolves such a marker whole instead of leaving a stray "]".
    func test_WALK_leftoverCheckCatchesMarkersWithBrackets() throws {
        let found = try python(
            """
            import citations
            print(len(citations.leftovers('a `[[Sources/x.swift#f(a: [Int] = [],]]` b')))
            print(len(citations.leftovers('plain [`Sources/x.swift:3`](../../Sources/x.swift#L3) and [[1, 2]]')))
            print(citations.PORT_MARKER.search('`[[Sources/x.swift#f(a: [Int] = [],]]`').group(3))
            """)
        XCTAssertEqual(
            found.split(separator: "\n").map(String.init), ["1", "0", "f(a: [Int] = [],"],
            "a bracketed marker is caught whole; resolved links and nested arrays are not markers")
        for document in try documents() {
            let text = try String(contentsOf: document, encoding: .utf8)
            XCTAssertFalse(
                text.contains("[[Sources/") || text.contains("[[Tests/") || text.contains("{{"),
                "\(document.lastPathComponent) holds an unresolved marker")
            XCTAssertFalse(
                text.contains(".swift:?"), "\(document.lastPathComponent) holds a citation that did not resolve")
        }
    }

    /// Every question card resolves every hop: the one line, trap, versions and topic are there; each line that
    /// decides the answer resolves in `Docs/knowledge/original-lines.tsv` and lies inside its symbol (not on another
    /// method's lines); the original's methods resolve; the port's anchor is on a line of its file; each test it
    /// names exists; its drill exists and says what to predict and what to expect. The myths page's entries
    /// resolve the same way.
    func test_WALK_everyFAQCardHopResolves() throws {
        let existing = try testNamesUnderTests()
        let knowledge = try Knowledge.load()
        let articles = try String(contentsOf: Self.root.appendingPathComponent("Docs/articles.md"), encoding: .utf8)
        XCTAssertEqual(knowledge.faq.count, 17)
        for entry in knowledge.faq {
            let id = entry.parityID
            XCTAssertFalse((entry.oneLine ?? "").isEmpty, "\(id): no one-line answer")
            XCTAssertFalse((entry.trap ?? "").isEmpty, "\(id): no trap")
            XCTAssertFalse((entry.versions ?? "").isEmpty, "\(id): no versions row")
            XCTAssertTrue(
                ["cache", "downloader", "manager", "views", "coders"].contains(entry.topic ?? ""),
                "\(id): topic \(entry.topic ?? "nil")")
            let deciding = OriginalLineTable.decidingCitations(for: entry.deciding ?? "")
            XCTAssertFalse(deciding.isEmpty, "\(id): no deciding line")
            XCTAssertFalse(
                deciding.contains { $0 == nil },
                "\(id): a deciding line does not resolve inside its symbol: \(entry.deciding ?? "")")
            XCTAssertFalse(
                OriginalLineTable.citations(for: entry.original).contains { $0 == nil }, "\(id): \(entry.original)")
            let portText = try String(contentsOf: Self.root.appendingPathComponent(entry.port.file), encoding: .utf8)
            XCTAssertTrue(
                portText.contains(entry.port.anchor), "\(id): \(entry.port.file) has no line with \(entry.port.anchor)")
            XCTAssertFalse(entry.port.symbol.isEmpty, "\(id): no symbol stored for the port's place")
            for test in entry.tests {
                let name = String(test.split(separator: ".").last ?? "")
                XCTAssertTrue(existing.contains(name), "\(id): no test \(name)")
                XCTAssertTrue(
                    name.hasPrefix("test_" + entry.testFilter),
                    "\(id): \(name) is not run by --filter \(entry.testFilter)")
            }
            let drill = entry.drill
            XCTAssertEqual(drill?.faq, entry.number)
            XCTAssertNotNil(drill, "\(id): no drill")
            XCTAssertFalse((drill?.predict ?? "").isEmpty, "\(id): the drill asks for no prediction")
            XCTAssertFalse((drill?.expect ?? "").isEmpty, "\(id): the drill names no failure to expect")
        }
        let markdown = FAQMarkdown.render(knowledge.faq)
        XCTAssertFalse(markdown.contains("(unresolved)"), "a card's link did not resolve")
        XCTAssertEqual(
            markdown.components(separatedBy: "- **Port:** [[Sources/").count - 1, 17,
            "every card cites the port with a marker that resolve.py turns into its file and symbol")
        XCTAssertGreaterThanOrEqual(knowledge.myths.count, 11)
        for myth in knowledge.myths {
            XCTAssertFalse(
                OriginalLineTable.decidingCitations(for: myth.original).contains { $0 == nil },
                "\(myth.id): \(myth.original)")
            let name = String(myth.test.split(separator: ".").last ?? "")
            XCTAssertTrue(existing.contains(name), "\(myth.id): no test \(name)")
            XCTAssertTrue(
                myth.source == "blog posts" || articles.contains("| \(myth.source) |"),
                "\(myth.id): source \(myth.source) is not an article of Docs/articles.md")
            if let then = myth.then { XCTAssertNotNil(MythMarkdown.olderLink(then), "\(myth.id): \(then)") }
        }
    }
}
