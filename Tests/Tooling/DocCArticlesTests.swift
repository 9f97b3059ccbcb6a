import Foundation
import SDPortTestSupport
import XCTest

@testable import sdport

/// The documentation site's generators (scripts/docc-articles.py, scripts/docc-symbol-links.py), run on a small
/// walkthrough, ledger and symbol graph written into a temp dir: what each conversion must produce for DocC.
final class DocCArticlesTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "sdport-docc")
    }

    override func tearDown() {
        directory.remove()
    }

    private func write(_ text: String, _ relative: String) throws {
        let url = directory.url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    private func read(_ relative: String) throws -> String {
        try String(contentsOf: directory.url.appendingPathComponent(relative), encoding: .utf8)
    }

    /// Runs a script of scripts/ with python3 in the temp dir; fails the test with its output when it fails.
    private func python(_ script: String, _ arguments: [String]) throws {
        let (status, text) = try runPython(script, arguments)
        XCTAssertEqual(status, 0, text)
    }

    /// Runs a script of scripts/ with python3 in the temp dir; returns its exit status and output (stdout, then
    /// stderr).
    private func runPython(_ script: String, _ arguments: [String]) throws -> (Int32, String) {
        let path = CLIProcess.packageRoot.appendingPathComponent("scripts/\(script)").path
        let result = try CLIProcess.runPython([path] + arguments, in: directory.url)
        return (result.status, result.stdout + result.stderr)
    }

    /// A Mermaid block in a form the site's drawer does not know fails the build, naming the line, rather than
    /// drawing a wrong picture.
    func test_DOCS_unknownMermaidFailsTheBuildNamingTheLine() throws {
        try write(
            "# 00 — Intro\n\nText.\n\n```mermaid\nsequenceDiagram\n    participant a as A\n    loop every chunk\n```\n",
            "Docs/walkthrough/00-intro.md")
        try write("# Parity ledger\n", "Docs/PARITY.md")
        try write("# ``SDPort``\n\n<!-- generated-topics -->\n", "catalog/SDPort.docc/SDPort.md")
        try write(#"{"symbols": []}"#, "symbols/SDPort.symbols.json")
        let (status, output) = try runPython(
            "docc-articles.py",
            [
                "--catalog", "catalog/SDPort.docc", "--symbol-graph",
                "symbols", "--out", "out/SDPort.docc",
            ])
        XCTAssertNotEqual(status, 0, output)
        XCTAssertTrue(output.contains("cannot read \"loop every chunk\""), output)
    }

    func test_DOCS_articlesGetDocCLinksSymbolLinksCardsAndDiagrams() throws {
        try write(
            """
            # 00 — Intro: `sd_setImage`

            The abstract names `SDImageCache` and `NotAType`.
            At tag 4.4.8: [`-x` — `SDWebImage/SDImageCache.m:1`](https://github.com/SDWebImage/SDWebImage/blob/4.4.8/SDWebImage/SDImageCache.m#L1).

            ## The `SDImageCache` heading

            See [the FAQ](01-faq.md), [its second card](01-faq.md#faq-02--second-question), the port's
            [`Sources/SDPort/Cache/SDImageCache.swift:3`](../../Sources/SDPort/Cache/SDImageCache.swift#L3) and a
            <user caches dir>/<namespace> placeholder.

            ```
            ┌──────┐
            │ box  │
            └──────┘
            ```

            ```mermaid
            sequenceDiagram
                participant main as main queue
                participant ioQueue as cache io queue
                Note over main: caller: view.sd_setImage(url)
                main->>ioQueue: 4. cache: disk query · miss
                ioQueue-->>main: (5) a mark
                main->>main: 10. view: set image
            ```
            """, "Docs/walkthrough/00-intro.md")
        try write(
            """
            # 01 — FAQ

            Questions.

            ### FAQ-01 — First question?

            First answer.

            ### FAQ-02 — Second question?

            Second answer, about `SDImageCache`.

            ### FAQ-03 — Third question?

            Third answer.
            """, "Docs/walkthrough/01-faq.md")
        try write(
            """
            # Parity ledger

            | ID | tests |
            |---|---|
            | FAQ-02 | `A.test_one`<br>`A.test_two` ([why](walkthrough/00-intro.md#the-sdimagecache-heading)) |
            """, "Docs/PARITY.md")
        try write(
            "# ``SDPort``\n\nThe module.\n\n## Topics\n\n<!-- generated-topics -->\n", "catalog/SDPort.docc/SDPort.md")
        try write(
            #"{"symbols": [{"pathComponents": ["SDImageCache"], "kind": {"identifier": "swift.class"}}]}"#,
            "symbols/SDPort.symbols.json")

        try python(
            "docc-articles.py",
            [
                "--catalog", "catalog/SDPort.docc", "--symbol-graph", "symbols",
                "--out", "out/SDPort.docc",
            ])

        let intro = try read("out/SDPort.docc/Generated/00-intro.md")
        XCTAssertTrue(intro.hasPrefix("# 00 — Intro: sd_setImage\n"), "a title loses its backticks: \(intro)")
        XCTAssertTrue(intro.contains("The abstract names ``SDImageCache`` and `NotAType`."), intro)
        XCTAssertTrue(intro.contains("`NotAType`.\n\nAt tag 4.4.8:"), "the link line leaves the abstract: \(intro)")
        XCTAssertTrue(intro.contains("## The `SDImageCache` heading"), "headings keep plain code: \(intro)")
        XCTAssertTrue(intro.contains("[the FAQ](<doc:01-faq>)"), intro)
        XCTAssertTrue(intro.contains("[its second card](<doc:FAQ-02>)"), intro)
        XCTAssertTrue(intro.contains("the port's\n`Sources/SDPort/Cache/SDImageCache.swift:3` and"), intro)
        XCTAssertTrue(intro.contains("&lt;user caches dir>/&lt;namespace>"), intro)
        XCTAssertTrue(
            intro.contains(
                "![The diagram of 00 — Intro: sd_setImage, as drawn in the Markdown walkthrough.](00-diagram-1)"), intro
        )
        XCTAssertFalse(intro.contains("┌"), "the diagram became an image")
        let svg = try read("out/SDPort.docc/Resources/00-diagram-1.svg")
        XCTAssertTrue(svg.contains(">│ box  │</text>"), svg)
        // The Mermaid block becomes a drawn sequence diagram: lanes, a note, a solid, a dashed and a self arrow.
        XCTAssertTrue(
            intro.contains("![The sequence diagram of 00 — Intro: sd_setImage, drawn from a real run.](00-diagram-2)"),
            intro)
        XCTAssertFalse(intro.contains("sequenceDiagram"), "the Mermaid text became an image")
        let sequence = try read("out/SDPort.docc/Resources/00-diagram-2.svg")
        for text in [
            ">main queue</text>", ">cache io queue</text>", ">caller: view.sd_setImage(url)</text>",
            ">4. cache: disk query · miss</text>", ">10. view: set image</text>",
        ] {
            XCTAssertEqual(
                sequence.components(separatedBy: text).count - 1, text.contains("queue<") ? 2 : 1,
                "\(text) in \(sequence)")
        }
        XCTAssertEqual(sequence.components(separatedBy: "stroke-dasharray=\"6,4\"").count - 1, 1, "one dashed mark")
        XCTAssertEqual(sequence.components(separatedBy: "marker-end=").count - 1, 3, "three arrows")

        let faq = try read("out/SDPort.docc/Generated/01-faq.md")
        XCTAssertTrue(faq.contains("@TopicsVisualStyle(detailedGrid)"), faq)
        XCTAssertTrue(faq.contains("- <doc:FAQ-01>\n- <doc:FAQ-02>\n- <doc:FAQ-03>"), faq)
        XCTAssertFalse(faq.contains("Second answer"), "the answers live on their cards")
        let card = try read("out/SDPort.docc/Generated/FAQ-02.md")
        XCTAssertTrue(card.hasPrefix("# FAQ-02 — Second question?\n\nSecond answer, about ``SDImageCache``."), card)
        XCTAssertTrue(card.contains("Part of <doc:01-faq>."), card)

        let ledger = try read("out/SDPort.docc/Generated/Parity-Ledger.md")
        XCTAssertTrue(
            ledger.contains("`A.test_one`; `A.test_two` ([why](<doc:00-intro#The-SDImageCache-heading>))"),
            ledger)

        let landing = try read("out/SDPort.docc/SDPort.md")
        XCTAssertTrue(landing.contains("- <doc:00-intro>\n- <doc:01-faq>"), landing)
        XCTAssertTrue(landing.contains("- <doc:Parity-Ledger>"), landing)
        XCTAssertFalse(landing.contains("generated-topics"), landing)
    }

    /// The DocC card page of a real FAQ card, made from the Markdown card `sdport faq --markdown` prints: the 30-second
    /// answer opens it, the follow-ups follow with their deciding lines as links at their tags, then the detail.
    func test_DOCS_cardPageShowsTheShortAnswerThenTheFollowUps() throws {
        let entry = try XCTUnwrap(FAQEntry.all.first { $0.number == 13 })
        // A page becomes cards when it holds three or more: FAQ-12, 13 and 14 as the chapter prints them.
        let page = FAQMarkdown.render(FAQEntry.all.filter { (12...14).contains($0.number) })
        try write("# 07 — FAQ\n\nQuestions.\n\n" + page + "\n", "Docs/walkthrough/07-faq.md")
        try write("# Parity ledger\n", "Docs/PARITY.md")
        try write(
            "# ``SDPort``\n\nThe module.\n\n## Topics\n\n<!-- generated-topics -->\n", "catalog/SDPort.docc/SDPort.md")
        try write(#"{"symbols": []}"#, "symbols/SDPort.symbols.json")
        try python(
            "docc-articles.py",
            [
                "--catalog", "catalog/SDPort.docc", "--symbol-graph", "symbols",
                "--out", "out/SDPort.docc",
            ])
        let card = try read("out/SDPort.docc/Generated/FAQ-13.md")
        let short = try XCTUnwrap(entry.short)
        XCTAssertTrue(card.hasPrefix("# FAQ-13 — \(entry.question)\n\n**In 30 seconds:** "), card)
        XCTAssertTrue(card.contains(String(short.suffix(40))), card)
        var marks = [card.range(of: "**In 30 seconds:**")?.lowerBound, card.range(of: "**Follow-ups:**")?.lowerBound]
        for followUp in entry.followUps {
            marks.append(card.range(of: "](\(followUp.original.link))")?.lowerBound)
        }
        marks.append(card.range(of: "**In one line:**")?.lowerBound)
        XCTAssertFalse(marks.contains(nil), card)
        XCTAssertEqual(marks.compactMap { $0 }, marks.compactMap { $0 }.sorted(), card)
        XCTAssertTrue(
            card.contains(
                "(https://github.com/SDWebImage/SDWebImage/blob/4.0.0/SDWebImage/SDWebImageDecoder.m#L228-L230)"), card)
    }

    func test_DOCS_symbolGraphCitationsBecomeLinksToTheOriginal() throws {
        let lines = [
            "3. A step number, and a <caches dir>/<ns> placeholder next to `a <b> c`.",
            "At tag 4.4.8: `SDWebImage/SDImageCache.m:177` (`-initWithNamespace:`).",
            "At tag 5.21.5: `SDWebImage/Core/SDImageCache.m:118`, and `SDImageCache.m` without a line.",
            "4. Only a first line can start a list that swallows the abstract.",
        ]
        let graph: [String: Any] = ["symbols": [["docComment": ["lines": lines.map { ["text": $0] }]]]]
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("in"),
            withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: graph).write(
            to: directory.url.appendingPathComponent("in/SDPort.symbols.json"))

        try python("docc-symbol-links.py", ["--module", "SDPort", "--in", "in", "--out", "out"])

        let data = try Data(contentsOf: directory.url.appendingPathComponent("out/SDPort.symbols.json"))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let symbol = try XCTUnwrap((object["symbols"] as? [[String: Any]])?.first)
        let texts = try XCTUnwrap((symbol["docComment"] as? [String: Any])?["lines"] as? [[String: Any]])
            .compactMap { $0["text"] as? String }
        guard texts.count == lines.count else { return XCTFail("lines lost: \(texts)") }
        let base = "https://github.com/SDWebImage/SDWebImage/blob"
        XCTAssertEqual(texts[0], "3\\. A step number, and a &lt;caches dir>/&lt;ns> placeholder next to `a <b> c`.")
        XCTAssertEqual(
            texts[1],
            "At tag 4.4.8: [`SDWebImage/SDImageCache.m:177`](\(base)/4.4.8/SDWebImage/SDImageCache.m#L177) (`-initWithNamespace:`)."
        )
        XCTAssertEqual(
            texts[2],
            "At tag 5.21.5: [`SDWebImage/Core/SDImageCache.m:118`](\(base)/5.21.5/SDWebImage/Core/SDImageCache.m#L118), and [`SDImageCache.m`](\(base)/4.4.8/SDWebImage/SDImageCache.m) without a line."
        )
        XCTAssertEqual(texts[3], "4. Only a first line can start a list that swallows the abstract.")
    }
}
