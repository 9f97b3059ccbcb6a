import Foundation
import XCTest

/// Keeps `Docs/walkthrough/` and `CONTRIBUTING.md` honest: every test they name exists, every `path:line` they
/// cite points into an existing file, and the FAQ chapter carries all 17 questions of `sdport faq`.
final class WalkthroughTests: XCTestCase {
    private static let root = CLIProcess.packageRoot
    private static let walkthrough = root.appendingPathComponent("Docs/walkthrough")

    /// The Markdown files checked: every chapter, and CONTRIBUTING.md.
    private func documents() throws -> [URL] {
        let chapters = try FileManager.default.contentsOfDirectory(at: Self.walkthrough, includingPropertiesForKeys: nil)
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
        for chapter in ["00-overview.md", "01-view-binding.md", "02-manager.md", "03-cache.md", "04-downloader.md",
                        "05-operation.md", "06-coders.md", "07-faq.md", "08-linux-differences.md", "CONTRIBUTING.md"] {
            XCTAssertTrue(names.contains(chapter), "missing \(chapter)")
        }
    }

    func test_WALK_everyTestNamedInTheWalkthroughExists() throws {
        let existing = try testNamesUnderTests()
        XCTAssertGreaterThan(existing.count, 50, "the test scan found too few tests to be right")
        var mentionedCount = 0
        for document in try documents() {
            let text = try String(contentsOf: document, encoding: .utf8)
            for name in Set(matches(of: #"\b(test_[A-Za-z0-9_]+)"#, in: text)) {
                mentionedCount += 1
                XCTAssertTrue(existing.contains(name), "\(document.lastPathComponent) names \(name), which no file under Tests/ defines")
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
                      let line = Int(text[lineRange]) else { continue }
                cited += 1
                let path = String(text[pathRange])
                let file = Self.root.appendingPathComponent(path)
                guard let source = try? String(contentsOf: file, encoding: .utf8) else {
                    XCTFail("\(document.lastPathComponent) cites \(path):\(line), but \(path) does not exist")
                    continue
                }
                let lineCount = source.split(separator: "\n", omittingEmptySubsequences: false).count
                XCTAssertTrue(line >= 1 && line <= lineCount,
                              "\(document.lastPathComponent) cites \(path):\(line), but the file has \(lineCount) lines")
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
            XCTAssertTrue(chapter.contains(heading), "07-faq.md lacks \(heading); regenerate it with `swift run sdport faq --markdown`")
        }
        // The FAQ's tests, as the command prints them, exist too.
        let existing = try testNamesUnderTests()
        for name in Set(matches(of: #"\b(test_[A-Za-z0-9_]+)"#, in: generated.stdout)) {
            XCTAssertTrue(existing.contains(name), "sdport faq names \(name), which no file under Tests/ defines")
        }
    }
}
