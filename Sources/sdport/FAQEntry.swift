import Foundation

/// One interview question (FAQ-01 … FAQ-17 in PARITY.md) with its answer, the code that answers it, the test that
/// proves it, and a value read from the running port.
///
/// The list is `FAQEntry.all` (`FAQEntry+All.swift`); `sdport faq` prints it and `sdport faq --markdown` prints
/// the table of `Docs/walkthrough/07-faq.md`, so the command and the walkthrough share one text.
struct FAQEntry: Sendable {
    /// 1 … 17; the parity ID is FAQ-0N / FAQ-NN.
    let number: Int
    let question: String
    let answer: String
    /// Where the port answers it: a file under the package root and a piece of text on the line meant
    /// (`sdport faq` turns it into `path:line` when the sources are next to the binary).
    let portFile: String
    let portAnchor: String
    /// The test under `Tests/Interview` that proves the answer (`Class.test_method`).
    let test: String
    /// The original's file and method (SDWebImage 4.4.8).
    let original: String
    /// Where the answer says 5.x differs: that file and method at tag 5.21.5, as a path under SDWebImage/
    /// ("Core/SDImageCache.m -migrateDiskCacheDirectory"), resolved from `Docs/original-lines-5.21.5.tsv`.
    var original5: String? = nil
    /// The question card (`07-faq.md`, `sdport faq N`, `sdport quiz`): the answer in one line.
    var oneLine: String? = nil
    /// The wrong answer people give, and why it is wrong (a quiz distractor comes from it).
    var trap: String? = nil
    /// What each version did: "4.0–4.2: …; 4.4.8: …; 5.x: …".
    var versions: String? = nil
    /// The topic `sdport quiz --topic` selects: cache, downloader, manager, views or coders.
    var topic: String? = nil
    /// The 4.4.8 lines that decide the answer (not a method's first line): "File.m symbol #L12" or "#L12-14",
    /// separated by "; " (`OriginalLineTable.decidingCitations`).
    var deciding: String? = nil
    /// Reads the proof from the running code ("maxConcurrentDownloads = 6"). May start a loopback server.
    let live: @Sendable () async throws -> String

    var parityID: String { String(format: "FAQ-%02d", number) }

    /// The `swift test --filter` that runs this answer's Interview tests ("FAQ08_").
    var testFilter: String { String(format: "FAQ%02d_", number) }
}
