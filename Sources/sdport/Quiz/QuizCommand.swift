import ArgumentParser
import Foundation

/// `sdport quiz`: retrieval practice on the FAQ cards, with spaced repetition (see `QuizSession`, `QuizProgress`).
struct QuizCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quiz",
        abstract: "Practise the interview questions: recall or choose, then see the answer proven live.",
        discussion: """
            Free recall: think of the answer, press a key to see it, then score yourself (y knew it, n missed it, \
            e easy). A card with quiz options is multiple choice instead (its own right and wrong options), scored \
            at once. Every answer comes with the live probe, the deciding lines (port and 4.4.8) and the test \
            command. Then the card's follow-ups, the questions an interviewer asks next: think, press a key to see \
            the answer and its deciding line, score y or n. A missed follow-up makes the whole card a miss.

            Spaced repetition (Leitner, five boxes): a missed question goes back to box 1 and comes again this \
            session; knew it moves it up one box, easy two; box 1 to 5 wait 0, 1, 3, 7, 21 days. Progress is kept \
            in $XDG_STATE_HOME/sdport/quiz.json (else ~/.local/state/sdport/quiz.json).

            In a pipe (stdin or stdout not a terminal) there are no prompts and no colours: each answer is one \
            line of stdin (recall: your answer, then y/n/e; choice: the letter; each follow-up: your answer, then \
            y/n), one question unless --count says more, and the end of the input ends the quiz.
            """)

    @Option(help: "Only questions of this topic.")
    var topic: QuizTopic?

    @Option(help: "Start with this question (1 to \(FAQEntry.all.count)).")
    var question: Int?

    @Option(help: "Ask at most this many questions (default: until you quit in a terminal, 1 in a pipe).")
    var count: Int?

    @Option(help: "Seed the random choice of questions and of the order of choices (repeatable runs).")
    var seed: UInt64?

    @Flag(help: "Ask every question as free recall, even one that could be multiple choice.")
    var recall = false

    @Flag(help: "Clear the progress (delete the state file) and exit.")
    var reset = false

    @Flag(help: "Print one JSON object per question instead of text (answers are read as lines, no prompts).")
    var json = false

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
    }

    /// The cards of `topic` (every card when nil) among `entries`; a topic none of them has is a usage error that
    /// names the topics that have questions.
    static func cards(topic: QuizTopic?, entries: [FAQEntry] = FAQEntry.all) throws -> [QuizCard] {
        let cards = QuizCard.all(topic: topic, entries: entries)
        guard !cards.isEmpty else {
            throw SDPortFailure(
                .usage,
                "no question has the topic \(topic?.rawValue ?? "?") yet; topics with "
                    + "questions: "
                    + Set(QuizCard.all(topic: nil, entries: entries).map(\.topic.rawValue)).sorted().joined(
                        separator: ", "))
        }
        return cards
    }

    func run() async throws {
        let knowledge = try Knowledge.load()
        if let question, !knowledge.faq.contains(where: { $0.number == question }) {
            throw SDPortFailure(.usage, "there is no question \(question); pick 1 to \(knowledge.faq.count)")
        }
        let file = QuizProgress.file()
        if reset {
            let existed = FileManager.default.fileExists(atPath: file.path)
            if existed {
                do {
                    try FileManager.default.removeItem(at: file)
                } catch {
                    throw SDPortFailure(
                        .cacheDirectoryUnusable, "cannot remove \(file.path): \(CacheFactory.reason(of: error))")
                }
            }
            if json {
                Console.out(JSONLine.encode(["reset": .bool(existed), "path": .string(file.path)]))
            } else {
                Console.out(
                    existed ? "Progress cleared: \(file.path) removed." : "No progress to clear (\(file.path)).")
            }
            return
        }
        let cards = try Self.cards(topic: topic, entries: knowledge.faq)
        var first: String?
        if let question {
            guard let card = cards.first(where: { $0.entry.number == question }) else {
                throw SDPortFailure(.usage, "question \(question) is not in the topic \(topic?.rawValue ?? "")")
            }
            first = card.id
        }
        let input = QuizInput.standard()
        let environment = ProcessInfo.processInfo.environment
        let colours = input.isTerminal && !json && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
        var session = QuizSession(
            cards: cards, input: input, json: json, colours: colours, recallOnly: recall,
            limit: count ?? (input.isTerminal && !json ? nil : 1), first: first, stateFile: file,
            progress: try QuizProgress.load(from: file), random: QuizRandom(seed: seed))
        _ = try await session.run()
    }
}
