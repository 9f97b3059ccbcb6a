import Foundation

/// One question of `sdport quiz`, made from an FAQ entry (`FAQEntry.all`) and the myths page (`Myth.all`).
///
/// Fallbacks while the teaching work has not filled the card fields: the topic comes from the entry's port file
/// (`QuizTopic.of`), the one-line answer is the first sentence of `answer`. The question is multiple choice only
/// when there is something wrong to choose: the entry's `trap`, or a myth of the same topic; otherwise it is free
/// recall. Port addition, no SDWebImage counterpart.
struct QuizCard: Sendable {
    /// A wrong answer offered in a multiple-choice question, and why it is wrong.
    struct Distractor: Sendable, Equatable {
        let text: String
        let why: String
    }

    let entry: FAQEntry
    let topic: QuizTopic
    let oneLine: String
    let distractors: [Distractor]

    var id: String { entry.parityID }
    var isMultipleChoice: Bool { !distractors.isEmpty }

    init(entry: FAQEntry, myths: [Myth] = Myth.all) {
        self.entry = entry
        topic = QuizTopic.of(entry)
        oneLine = entry.oneLine.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
            ?? Self.firstSentence(of: entry.answer)
        var wrong: [Distractor] = []
        if let trap = entry.trap?.trimmingCharacters(in: .whitespaces), !trap.isEmpty {
            wrong.append(Distractor(text: Self.wrongAnswer(inTrap: trap), why: trap))
        }
        // Myths about this very answer first (their test is one of its Interview tests, or they cite the same 4.4.8
        // symbol), then, while there are fewer than two wrong choices, other myths of the topic, starting at a place
        // that depends on the question so that not every question of a topic gets the same ones. At most three
        // wrong choices: four choices in all.
        let topic = self.topic
        let ownTests = String(format: "FAQ%02d_", entry.number)
        let ownSymbols = Set(OriginalLineTable.symbols(in: entry.original).map { "\($0.file) \($0.symbol)" })
        let ofTopic = myths.filter { QuizTopic(rawValue: $0.topic.lowercased()) == topic }
        let related = myths.filter { myth in
            myth.test.contains(ownTests)
                || !ownSymbols.isDisjoint(with: OriginalLineTable.symbols(in: myth.original).map {
                    "\($0.file) \($0.symbol.split(separator: " ").first.map(String.init) ?? $0.symbol)"
                })
        }
        let rotated = ofTopic.isEmpty ? [] : Array(ofTopic[(entry.number % ofTopic.count)...] + ofTopic[..<(entry.number % ofTopic.count)])
        for myth in related where wrong.count < 3 {
            wrong.append(Distractor(text: myth.belief, why: "A myth (held in \(myth.trueIn)): \(myth.truth)"))
        }
        for myth in rotated where wrong.count < 2 && !related.contains(where: { $0.id == myth.id }) {
            wrong.append(Distractor(text: myth.belief, why: "A myth (held in \(myth.trueIn)): \(myth.truth)"))
        }
        distractors = wrong
    }

    /// Every card of `entries`, limited to `topic` when given.
    static func all(topic: QuizTopic?, entries: [FAQEntry] = FAQEntry.all, myths: [Myth] = Myth.all) -> [QuizCard] {
        entries.map { QuizCard(entry: $0, myths: myths) }.filter { topic == nil || $0.topic == topic }
    }

    /// The choices in the order shown, the right one at `correctIndex`: the distractors with the answer placed at a
    /// random position.
    func choices<R: RandomNumberGenerator>(using generator: inout R) -> (texts: [String], correctIndex: Int) {
        var texts = distractors.map(\.text)
        let index = Int.random(in: 0...texts.count, using: &generator)
        texts.insert(oneLine, at: index)
        return (texts, index)
    }

    /// The wrong answer a trap describes: a trap reads "Saying <wrong answer>: <why it is wrong>", so the part before
    /// the first ": " (else the first sentence), without a leading "Saying" / "Quoting" / … word (the next word is
    /// capitalised when it is a plain lowercase word, not code).
    static func wrongAnswer(inTrap trap: String) -> String {
        var text = trap.range(of: ": ").map { String(trap[..<$0.lowerBound]) } ?? firstSentence(of: trap)
        let words = text.split(separator: " ", maxSplits: 1)
        if words.count == 2, words[0].hasSuffix("ing"), words[0].first?.isUppercase == true {
            // "Saying they are …" → "They are …", but "Saying image/* …" keeps its code as written.
            let rest = String(words[1])
            let firstWord = rest.prefix { $0 != " " }
            text = firstWord.allSatisfy({ $0.isLetter && $0.isLowercase }) ? rest.prefix(1).uppercased() + rest.dropFirst() : rest
        }
        return text
    }

    /// The text up to the first full stop that ends a sentence (". " before a capital, or the end); the whole
    /// text when there is none. Abbreviations such as "e.g." do not end a sentence.
    static func firstSentence(of text: String) -> String {
        let characters = Array(text.trimmingCharacters(in: .whitespacesAndNewlines))
        var index = 0
        while index < characters.count {
            if characters[index] == ".", index + 1 == characters.count
                || (characters[index + 1] == " " && index + 2 < characters.count
                    && (characters[index + 2].isUppercase || characters[index + 2].isNumber)) {
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
