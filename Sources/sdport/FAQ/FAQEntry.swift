import Foundation

/// One interview question (FAQ-01 … FAQ-17 of the parity spec) with its answer, the code that answers it, the tests
/// that prove it, its break-it drill, and a value read from the running port.
///
/// The card is data, `Docs/knowledge/faq/FAQ-NN.json`; its port and original citations are its parity ID's
/// (`Docs/knowledge/parity/FAQ-NN.json`), joined in by `Knowledge`. `sdport faq` prints the cards and
/// `sdport faq --markdown` renders them for `Docs/walkthrough/07-faq.md`, so the command and the walkthrough share one
/// text. Only the live probe is code (`FAQLiveProbes.probe(forFAQ:)`, keyed by number).
///
/// Port addition, no SDWebImage counterpart.
struct FAQEntry: Sendable {
    /// 1 … 17; the parity ID is FAQ-0N / FAQ-NN.
    let number: Int
    let question: String
    /// The 30-second answer, what a candidate says aloud (at most 70 words), true of 4.4.8 and naming the version
    /// where it differs. Printed first.
    var short: String? = nil
    /// What an interviewer asks next, each with its deciding line at the version it is about.
    var followUps: [FAQFollowUp] = []
    let answer: String
    /// Where the port answers it: a file under the package root, a piece of text on the line meant, and the symbol
    /// holding that line (from the parity ID).
    var port = PortPlace(file: "", anchor: "", symbol: "")
    /// The tests under `Tests/Interview` that prove the answer (`Class.test_method`).
    let tests: [String]
    /// The original's files and methods (SDWebImage 4.4.8), "File.m -a:, -b:; Other.m c" (from the parity ID).
    var original = ""
    /// Where the answer says 5.x differs: that file and method at tag 5.21.5, as a path under SDWebImage/
    /// ("Core/SDImageCache.m -migrateDiskCacheDirectory"), resolved from `original-lines-5.21.5.tsv` (from the
    /// parity ID).
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
    /// The one-line change that breaks the rule, and the tests that catch it (`sdport drill N`).
    var drill: Drill? = nil
    /// The multiple-choice options of `sdport quiz`, from this card alone.
    var quiz: FAQQuizOptions? = nil

    var parityID: String { String(format: "FAQ-%02d", number) }

    /// The `swift test --filter` that runs this answer's Interview tests ("FAQ08_").
    var testFilter: String { String(format: "FAQ%02d_", number) }

    /// The tests as one line, "A.test_a; B.test_b".
    var test: String { tests.joined(separator: "; ") }

    /// Reads the proof from the running code ("maxConcurrentDownloads = 6"). May start a loopback server.
    var live: @Sendable () async throws -> String {
        let number = number
        return FAQLiveProbes.probe(forFAQ: number) ?? {
            throw SDPortFailure(.loadFailed, String(format: "FAQ-%02d has no live probe", number))
        }
    }

    /// Every card of the installed knowledge (`Knowledge.load()`); empty when it cannot be read, which the commands
    /// report themselves by loading it first.
    static var all: [FAQEntry] { (try? Knowledge.load())?.faq ?? [] }
}
