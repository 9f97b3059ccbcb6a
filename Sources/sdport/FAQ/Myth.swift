import Foundation

/// A belief a learner brings from the 4.0–4.2 articles (`Docs/articles.md`) or older blog posts, set against what
/// SDWebImage 4.4.8 does. The myths are data, `Docs/knowledge/myths/<id>.json` in the order of
/// `Docs/knowledge/index.json`; they render the "myths and versions" page and feed the multiple-choice questions of
/// `sdport quiz` and the older-version lines of `sdport lab`.
///
/// Port addition, no SDWebImage counterpart.
struct Myth: Sendable {
    /// A short stable name ("barrier-queue").
    let id: String
    /// The topic, as `FAQEntry.topic`: cache, downloader, manager, views or coders.
    let topic: String
    /// The belief, in our own words.
    let belief: String
    /// Where the learner read it: an article's key in `Docs/articles.md` ("A1") or "blog posts".
    let source: String
    /// The versions in which the belief held ("4.0–4.2"; "never").
    let trueIn: String
    /// What 4.4.8 does instead, in one or two sentences.
    let truth: String
    /// The 4.4.8 lines that decide it: "File.m symbol" or, for the deciding line inside a symbol,
    /// "File.m symbol #L12-14"; several separated by "; " (`OriginalLineTable.decidingCitations`).
    let original: String
    /// The port's test that shows today's behaviour (`Class.test_method`).
    let test: String
    /// Where an older version did what the belief says: "4.2.0 SDWebImageDownloader.m:83" (tag, file, line),
    /// linked at that tag; nil when no version did.
    var then: String? = nil

    /// Every myth of the installed knowledge (`Knowledge.load()`); empty when it cannot be read, which the commands
    /// report themselves by loading it first.
    static var all: [Myth] { (try? Knowledge.load())?.myths ?? [] }
}
