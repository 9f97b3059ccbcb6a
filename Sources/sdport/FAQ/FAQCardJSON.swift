import Foundation

/// One card as `sdport faq --json` prints it: the 30-second answer (`short`) and the follow-ups (each with its
/// question, answer and `original`, the deciding line with its GitHub link) first, then the rest of the card.
/// No live values: the JSON is the card's data, the same for every run.
///
/// Port addition, no SDWebImage counterpart.
struct FAQCardJSON: Encodable {
    /// A follow-up with the link of its deciding line spelled out.
    struct FollowUp: Encodable {
        struct Original: Encodable {
            let tag: String
            let file: String
            let lines: String
            let token: String
            let link: String
        }

        let question: String
        let answer: String
        let original: Original
    }

    let id: String
    let question: String
    let short: String?
    let followUps: [FollowUp]
    let oneLine: String?
    let answer: String
    let trap: String?
    let versions: String?
    let topic: String?
    let tests: [String]

    init(_ entry: FAQEntry) {
        id = entry.parityID
        question = entry.question
        short = entry.short
        followUps = entry.followUps.map { followUp in
            let line = followUp.original
            return FollowUp(
                question: followUp.question, answer: followUp.answer,
                original: .init(
                    tag: line.tag, file: line.file, lines: line.lines, token: line.token,
                    link: line.link))
        }
        oneLine = entry.oneLine
        answer = entry.answer
        trap = entry.trap
        versions = entry.versions
        topic = entry.topic
        tests = entry.tests
    }

    /// The cards as one JSON array, keys sorted, slashes unescaped (the links stay readable).
    static func render(_ entries: [FAQEntry]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(entries.map(FAQCardJSON.init)), as: UTF8.self)
    }
}
