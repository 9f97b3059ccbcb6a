import Foundation

/// One question of `sdport quiz`, made from an FAQ entry (`FAQEntry.all`) alone: its question, its options and its
/// follow-ups.
///
/// Multiple choice when the card has quiz options (`FAQEntry.quiz`): its right option among its three wrong ones,
/// all written from the card's own traps, versions and follow-ups, never another topic's myth. Otherwise free
/// recall. After the main question the session asks the card's follow-ups (`FAQEntry.followUps`), recall style; a
/// missed follow-up makes the card a miss. Fallbacks while a card lacks fields: the topic comes from the entry's port
/// file (`QuizTopic.of`), the one-line answer is the first sentence of `answer`. Port addition, no SDWebImage
/// counterpart.
struct QuizCard: Sendable {
    /// A wrong answer offered in a multiple-choice question, and why it is wrong (the card's trap).
    struct Distractor: Sendable, Equatable {
        let text: String
        let why: String
    }

    let entry: FAQEntry
    let topic: QuizTopic
    let oneLine: String
    /// The option that is right, as the choices show it (the card's `quiz.right`; the one-line answer without one).
    let rightOption: String
    let distractors: [Distractor]

    var id: String { entry.parityID }
    var isMultipleChoice: Bool { !distractors.isEmpty }
    var followUps: [FAQFollowUp] { entry.followUps }

    init(entry: FAQEntry) {
        self.entry = entry
        topic = QuizTopic.of(entry)
        oneLine =
            entry.oneLine.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
            ?? Self.firstSentence(of: entry.answer)
        let why = entry.trap?.trimmingCharacters(in: .whitespaces) ?? ""
        let wrong = entry.quiz?.wrong.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } ?? []
        let right = entry.quiz?.right.trimmingCharacters(in: .whitespaces) ?? ""
        rightOption = right.isEmpty ? oneLine : right
        distractors = right.isEmpty ? [] : wrong.map { Distractor(text: $0, why: why) }
    }

    /// Every card of `entries`, limited to `topic` when given.
    static func all(topic: QuizTopic?, entries: [FAQEntry] = FAQEntry.all) -> [QuizCard] {
        entries.map { QuizCard(entry: $0) }.filter { topic == nil || $0.topic == topic }
    }

    /// The choices in the order shown, the right one at `correctIndex`: the distractors with the right option placed
    /// at a random position.
    func choices<R: RandomNumberGenerator>(using generator: inout R) -> (texts: [String], correctIndex: Int) {
        var texts = distractors.map(\.text)
        let index = Int.random(in: 0...texts.count, using: &generator)
        texts.insert(rightOption, at: index)
        return (texts, index)
    }

    /// The text up to the first full stop that ends a sentence (". " before a capital, or the end); the whole
    /// text when there is none. Abbreviations such as "e.g." do not end a sentence.
    static func firstSentence(of text: String) -> String {
        let characters = Array(text.trimmingCharacters(in: .whitespacesAndNewlines))
        var index = 0
        while index < characters.count {
            if characters[index] == ".",
                index + 1 == characters.count
                    || (characters[index + 1] == " " && index + 2 < characters.count
                        && (characters[index + 2].isUppercase || characters[index + 2].isNumber))
            {
                let sentence = String(characters[...index])
                let lastWord = sentence.split(separator: " ").last.map(String.init) ?? ""
                if !["e.g.", "i.e.", "etc.", "vs."].contains(lastWord.lowercased()) { return sentence }
            }
            index += 1
        }
        return String(characters)
    }

    // MARK: What is shown after the answer

    /// The port's file and the symbol that holds its deciding line (stored with the fact: no checkout is read).
    var portLine: String { entry.port.text }

    /// The original's deciding lines at 4.4.8 as links (file and line are in the link): the entry's `deciding` lines when it
    /// has them (the lines inside the methods that decide the answer), else the first lines of the methods it names
    /// in `original`; the reference itself when the line table is not there.
    var originalLines: [String] {
        let deciding = entry.deciding.map { OriginalLineTable.decidingCitations(for: $0).compactMap { $0 } } ?? []
        let resolved = deciding.isEmpty ? OriginalLineTable.citations(for: entry.original).compactMap { $0 } : deciding
        return resolved.isEmpty ? [entry.original] : resolved.map(\.link)
    }

    /// The 5.21.5 lines, when the answer says 5.x differs.
    var original5Lines: [String] {
        guard let original5 = entry.original5 else { return [] }
        let resolved = OriginalLineTable.citations5(for: original5).compactMap { $0 }
        return resolved.isEmpty ? [original5] : resolved.map(\.link)
    }

    /// The command that runs the entry's tests (several tests become one `--filter` pattern).
    var testCommand: String {
        let tests = entry.tests
        let filter = tests.count == 1 ? tests[0] : "'" + tests.joined(separator: "|") + "'"
        return "swift test --disable-swift-testing --filter \(filter)"
    }
}
