import Foundation

/// The line of SDWebImage that decides a follow-up's answer: a release tag ("4.4.8", "5.21.5", "4.0.0"), a path
/// from the repository's root ("SDWebImage/SDImageCache.m", "SDWebImage/Core/SDImageCache.m"), a line or range
/// ("409", "203-214") and a short text that is on those lines at that tag. `scripts/knowledge.py --verify-tokens`
/// checks the text against the original and records it in `Docs/knowledge/verified-tokens.tsv`; `--check` holds the
/// cards to that record, so the citation cannot drift without a failing check.
///
/// Port addition, no SDWebImage counterpart.
struct FAQOriginalLine: Codable, Sendable, Equatable {
    let tag: String
    let file: String
    let lines: String
    let token: String

    /// "SDWebImage/SDImageCache.m:203-214 at 4.4.8".
    var location: String { "\(file):\(lines) at \(tag)" }

    /// The line (or range) on GitHub at the tag: `…/blob/TAG/FILE#L12` or `#L12-L14`.
    var link: String {
        let range = lines.split(separator: "-").map { "L\($0)" }.joined(separator: "-")
        return "https://github.com/SDWebImage/SDWebImage/blob/\(tag)/\(file)#\(range)"
    }
}
