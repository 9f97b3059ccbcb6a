import Foundation
import SDPortTestSupport
import XCTest

@testable import sdport

/// The cards as an interviewer and a learner meet them, on the knowledge `sdport` ships: every card has a 30-second
/// answer and follow-ups whose deciding lines are at the version each one is about and were checked against the
/// original (the record `scripts/knowledge.py --verify-tokens` made); and its quiz cannot be passed by elimination:
/// no wrong option is another card's, no two options of a card say the same thing, and the right option is the
/// longest in at most half of the cards.
final class FAQInterviewTests: XCTestCase {
    // MARK: Quiz options

    /// The words of `text`, lowercased, without punctuation.
    static func words(_ text: String) -> [String] {
        text.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    /// Two options say the same thing: equal once case and punctuation are dropped, or nearly the same words (80 % of
    /// their union shared, or 90 % of the smaller one's).
    static func sameClaim(_ a: String, _ b: String) -> Bool {
        let (wordsA, wordsB) = (words(a), words(b))
        if wordsA == wordsB { return true }
        let (setA, setB) = (Set(wordsA), Set(wordsB))
        guard !setA.isEmpty, !setB.isEmpty else { return false }
        let shared = Double(setA.intersection(setB).count)
        return shared / Double(setA.union(setB).count) >= 0.8 || shared / Double(min(setA.count, setB.count)) >= 0.9
    }

    /// The three rules, for the cards given: what is wrong, one message per problem.
    static func optionProblems(_ cards: [QuizCard]) -> [String] {
        var problems: [String] = []
        var longest: [String] = []
        for (index, card) in cards.enumerated() {
            let options = [card.rightOption] + card.distractors.map(\.text)
            if options.count != 4 { problems.append("\(card.id): \(options.count) options, not 4") }
            for i in options.indices {
                for j in options.indices where j > i && sameClaim(options[i], options[j]) {
                    problems.append("\(card.id): options \(i + 1) and \(j + 1) say the same thing")
                }
            }
            for other in cards[..<index] {
                for mine in card.distractors.map(\.text)
                where other.distractors.contains(where: { sameClaim($0.text, mine) }) {
                    problems.append("\(card.id): the wrong option \"\(mine)\" is also one of \(other.id)'s")
                }
            }
            if card.rightOption.count >= options.map(\.count).max() ?? 0 { longest.append(card.id) }
        }
        if longest.count * 2 > cards.count {
            problems.append("the right option is the longest in \(longest.count) of \(cards.count) cards: \(longest)")
        }
        return problems
    }

    /// All three rules hold for every card the quiz asks, and each rule fails when broken: a repeated option in new
    /// words, another card's wrong option, and right options made the longest.
    func test_FAQ_quizOptionsAreDistinctOwnAndNotTheLongestInMostCards() throws {
        let cards = QuizCard.all(topic: nil, entries: try Knowledge.load().faq)
        XCTAssertEqual(cards.count, 17)
        XCTAssertTrue(cards.allSatisfy(\.isMultipleChoice))
        XCTAssertEqual(Self.optionProblems(cards), [])

        var entries = cards.map(\.entry)
        let first = try XCTUnwrap(entries[0].quiz)
        entries[0].quiz = FAQQuizOptions(
            right: first.right,
            wrong: [
                first.wrong[0], first.wrong[1],
                first.wrong[0].uppercased() + "!",
            ])
        XCTAssertEqual(
            Self.optionProblems(entries.map { QuizCard(entry: $0) }), ["FAQ-01: options 2 and 4 say the same thing"])
        entries = cards.map(\.entry)
        let second = try XCTUnwrap(entries[1].quiz)
        entries[1].quiz = FAQQuizOptions(right: second.right, wrong: [first.wrong[2]] + second.wrong.dropFirst())
        XCTAssertEqual(
            Self.optionProblems(entries.map { QuizCard(entry: $0) }),
            ["FAQ-02: the wrong option \"\(first.wrong[2])\" is also one of FAQ-01's"])
        entries = cards.map(\.entry).map { entry in
            var entry = entry
            entry.quiz = entry.quiz.map {
                FAQQuizOptions(right: $0.right + " That is the whole rule, said in full.", wrong: $0.wrong)
            }
            return entry
        }
        XCTAssertTrue(
            Self.optionProblems(entries.map { QuizCard(entry: $0) }).first?
                .hasPrefix("the right option is the longest in 17 of 17 cards") == true)
    }

    // MARK: Short answers and follow-ups

    /// The versions a follow-up's question names ("current 5.x", "5.x", "4.0", "5.2.0", "4.0–4.4.1").
    static func versionsNamed(in question: String) -> [String] {
        let pattern = #"(current )?\d+\.(x|\d+)(\.\d+)?(\s*(–|-|to)\s*\d+\.\d+(\.\d+)?)?"#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return regex.matches(in: question, range: NSRange(question.startIndex..., in: question)).compactMap {
            Range($0.range, in: question).map { String(question[$0]) }
        }
    }

    /// Whether release `tag` is the version `named` speaks about: current 5.x is 5.21.5; N.x any N tag; a range
    /// holds it; one release is that one or a later one of the same major version (a rule since then).
    static func tag(_ tag: String, fits named: String) -> Bool {
        let numbers = { (text: String) in text.split(separator: ".").compactMap { Int($0) } }
        let tagged = numbers(tag)
        if named.hasPrefix("current ") { return tag == "5.21.5" }
        if named.hasSuffix(".x") { return tagged.first == numbers(String(named.dropLast(2))).first }
        let ends = named.components(separatedBy: CharacterSet(charactersIn: "–-")).map {
            $0.replacingOccurrences(of: " to ", with: "")
        }
        .map { $0.trimmingCharacters(in: .whitespaces) }
        let low = numbers(ends[0]) + [0, 0, 0].dropFirst(numbers(ends[0]).count)
        if ends.count == 2 {
            var high = numbers(ends[1])
            if high.count == 2 { high.append(Int.max) }
            return !tagged.lexicographicallyPrecedes(low) && !high.lexicographicallyPrecedes(tagged)
        }
        return tagged.first == low.first && !tagged.lexicographicallyPrecedes(low)
    }

    /// The record of checked tokens: "tag\tfile\tlines" → tokens.
    static func tokenRecord() throws -> [String: Set<String>] {
        let text = try String(
            contentsOf: CLIProcess.packageRoot.appendingPathComponent("Docs/knowledge/verified-tokens.tsv"),
            encoding: .utf8)
        var record: [String: Set<String>] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5 else { continue }
            record[fields[0...2].joined(separator: "\t"), default: []].insert(fields[3])
        }
        return record
    }

    /// All 17 cards: a short answer of at most 70 words; at least three follow-ups, each with its question and answer,
    /// citing a line of the version its question names (4.4.8 when it names none and does not ask "when"), linked at
    /// that tag, and recorded as checked against the original with the same token.
    func test_FAQ_everyCardHasAShortAnswerAndThreeFollowUpsCitingTheirVersion() throws {
        let knowledge = try Knowledge.load()
        let record = try Self.tokenRecord()
        XCTAssertEqual(knowledge.faq.count, 17)
        for entry in knowledge.faq {
            let short = try XCTUnwrap(entry.short, entry.parityID)
            XCTAssertLessThanOrEqual(short.split(whereSeparator: \.isWhitespace).count, 70, entry.parityID)
            XCTAssertGreaterThanOrEqual(entry.followUps.count, 3, entry.parityID)
            for followUp in entry.followUps {
                let line = followUp.original
                let id = "\(entry.parityID) \"\(followUp.question)\""
                XCTAssertFalse(followUp.answer.isEmpty, id)
                XCTAssertNotNil(line.tag.range(of: #"^\d+\.\d+\.\d+$"#, options: .regularExpression), id)
                XCTAssertNotNil(line.lines.range(of: #"^\d+(-\d+)?$"#, options: .regularExpression), id)
                XCTAssertTrue(
                    line.link.hasPrefix("https://github.com/SDWebImage/SDWebImage/blob/\(line.tag)/\(line.file)#L"), id)
                XCTAssertEqual(
                    record["\(line.tag)\t\(line.file)\t\(line.lines)"]?.contains(line.token), true,
                    "\(id): \(line.token) at \(line.location) is not in the checked record")
                // A question naming no version is about 4.4.8, the card's version; one asking "since when" may cite the
                // version its answer names.
                var named = Self.versionsNamed(in: followUp.question)
                if named.isEmpty && line.tag != "4.4.8"
                    && followUp.question.lowercased().range(of: #"^(since )?when\b"#, options: .regularExpression)
                        != nil
                {
                    named = Self.versionsNamed(in: followUp.answer)
                }
                if named.isEmpty {
                    XCTAssertEqual(line.tag, "4.4.8", "\(id) names no version, so it speaks about 4.4.8")
                } else {
                    XCTAssertTrue(
                        named.contains { Self.tag(line.tag, fits: $0) }, "\(id) cites \(line.tag), not \(named)")
                }
            }
        }
        XCTAssertTrue(Self.tag("5.21.5", fits: "current 5.x"))
        XCTAssertFalse(Self.tag("5.0.0", fits: "current 5.x"))
        XCTAssertFalse(Self.tag("4.4.8", fits: "5.x"))
        XCTAssertTrue(Self.tag("5.21.5", fits: "5.2.0"))
        XCTAssertFalse(Self.tag("5.1.1", fits: "5.2.0"))
        XCTAssertTrue(Self.tag("4.4.1", fits: "4.0–4.4.1"))
        XCTAssertFalse(Self.tag("4.4.2", fits: "4.0–4.4.1"))
        XCTAssertTrue(Self.tag("4.2.0", fits: "4.0–4.2"))
    }
}
