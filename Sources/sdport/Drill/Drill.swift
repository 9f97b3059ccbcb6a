import Foundation

/// One break-it drill (interview prep by experiment): a one-line change that breaks the rule of one FAQ answer,
/// and the Interview tests that must catch it. It is the `drill` of its card, `Docs/knowledge/faq/FAQ-NN.json`;
/// `test_DRILL_everyChangeAppliesExactlyOnce` checks that each `find` occurs exactly once in its file, so a drill never
/// silently stops applying.
///
/// Port addition, no SDWebImage counterpart.
struct Drill: Decodable, Sendable {
    /// The FAQ answer it breaks (1…17): the number of the card that holds it.
    var faq = 0
    /// The rule, in one sentence.
    let rule: String
    /// The file changed, relative to the package root.
    let file: String
    /// The text replaced (it must occur exactly once in `file`) and its replacement.
    let find: String
    let replace: String
    /// The `swift test --filter` of the Interview tests that catch it (`FAQ08_`).
    let tests: String
    /// Whether the change breaks how something works ("mechanism") or only a value ("constant").
    var kind: String? = nil
    /// The question to answer before running it: what will happen, and which tests will notice?
    var predict: String? = nil
    /// What to expect: the tests that fail and the words of their failure messages.
    var expect: String? = nil

    private enum CodingKeys: String, CodingKey {
        case rule, file, find, replace, tests, kind, predict, expect
    }

    /// `text` with this drill's change applied; nil unless `find` occurs exactly once.
    func applied(to text: String) -> String? {
        guard let first = text.range(of: find), text.range(of: find, range: first.upperBound..<text.endIndex) == nil
        else {
            return nil
        }
        return text.replacingCharacters(in: first, with: replace)
    }
}
