import Foundation

/// One run of `sdport quiz`: asks questions until the learner quits, the input ends or `limit` questions were
/// asked; scores each, moves it between Leitner boxes and saves the progress after every question.
///
/// Free recall: the question, then (terminal) any key reveals the answer, then y / n / e scores it; (pipe) the
/// first line is the learner's answer, shown back, the next line the score. Multiple choice: the card's own options,
/// then a letter (key or line), scored at once. After either, the one-line answer, the live probe, the deciding lines
/// of the port and of 4.4.8, and the test command. Then the card's follow-ups, recall style, each revealed with its
/// deciding line and scored y / n; one missed follow-up makes the card a miss (back to Leitner box 1). In a pipe no prompt is printed, and when the input ends before the
/// first question is answered, its answer is still shown, unscored. Port addition, no SDWebImage counterpart.
struct QuizSession {
    let cards: [QuizCard]
    let input: QuizInput
    let json: Bool
    let colours: Bool
    /// Free recall even where multiple choice is possible (`--recall`).
    let recallOnly: Bool
    /// At most this many questions; nil: until the learner quits.
    let limit: Int?
    /// The first question's parity ID (`--question`), if chosen.
    let first: String?
    let stateFile: URL
    var progress: QuizProgress
    var random: QuizRandom

    private enum Step { case next, quit }

    /// Runs the session; returns what was asked.
    mutating func run() async throws -> [QuizRecord] {
        var records: [QuizRecord] = []
        var previous: String?
        while limit.map({ records.count < $0 }) ?? true {
            let now = Date()
            let chosen: (id: String, practisingAhead: Bool)?
            if records.isEmpty, let first {
                chosen = (first, false)
            } else {
                chosen = progress.next(among: cards.map(\.id), avoiding: previous, at: now, using: &random)
            }
            guard let chosen, let card = cards.first(where: { $0.id == chosen.id }) else { break }
            let (record, step) = try await ask(card, practisingAhead: chosen.practisingAhead, isFirst: records.isEmpty)
            if let record { records.append(record) }
            previous = card.id
            if step == .quit { break }
        }
        if !json {
            let scored = records.filter { $0.grade != .unscored }
            let knew = scored.filter { $0.grade == .knew || $0.grade == .easy }.count
            if !records.isEmpty { Console.out("") }
            Console.out("\(records.count) asked, \(scored.count) scored, \(knew) known. Progress: \(stateFile.path)")
        }
        return records
    }

    // MARK: One question

    /// The main question, then (when it was scored) the card's follow-ups; a missed follow-up makes the card a miss.
    private mutating func ask(_ card: QuizCard, practisingAhead: Bool, isFirst: Bool) async throws
        -> (QuizRecord?, Step)
    {
        let box = progress.box(of: card.id)
        if !json {
            if !isFirst { Console.out("") }
            Console.out(
                dim("\(card.id) · \(card.topic.rawValue) · box \(box)" + (practisingAhead ? " · practising ahead" : ""))
            )
            Console.out(bold("Q: " + card.entry.question))
        }
        guard let main = try await askMain(card, isFirst: isFirst) else { return (nil, .quit) }
        var grade = main.grade
        var step = main.step
        var followUps: [QuizFollowUpRecord] = []
        if grade != .unscored && step == .next {
            for (index, followUp) in card.followUps.enumerated() {
                let (asked, next) = askFollowUp(followUp, number: index + 1, of: card.followUps.count)
                if let asked { followUps.append(asked) }
                if next == .quit { step = .quit }
                guard let asked, asked.grade != .unscored, next == .next else { break }
            }
            if followUps.contains(where: { $0.grade == .missed }) { grade = .missed }
        }
        let record = try finish(
            card, grade: grade, response: main.response, choices: main.choices, live: main.live,
            followUps: followUps)
        return (record, step)
    }

    private struct MainAnswer {
        var grade: QuizGrade
        var response: String?
        var choices: [String]?
        var live: String
        var step: Step
    }

    /// Asks the main question (multiple choice or free recall) and shows its answer block; nil when the learner
    /// quit before answering, or the input ended before any question after the first.
    private mutating func askMain(_ card: QuizCard, isFirst: Bool) async throws -> MainAnswer? {
        var grade = QuizGrade.unscored
        var response: String?
        if card.isMultipleChoice && !recallOnly {
            let (texts, correct) = card.choices(using: &random)
            let letters = texts.indices.map { String(UnicodeScalar(UInt8(97 + $0))) }
            if !json {
                for (letter, text) in zip(letters, texts) { printWrapped("  \(letter)) ", text) }
            }
            let picked: String?
            if input.isTerminal && !json {
                var key = input.key(prompt: bold("Your choice (\(letters.first!)–\(letters.last!), q quits): "))
                while key != "q" && !letters.contains(key) { key = input.key() }
                Console.out(key)
                if key == "q" { return nil }
                picked = key
            } else {
                guard let line = input.line() else {
                    if !isFirst { return nil }
                    return MainAnswer(
                        grade: .unscored, response: nil, choices: texts, live: try await revealText(card), step: .quit)
                }
                response = line
                let trimmed = line.trimmingCharacters(in: .whitespaces).lowercased()
                if trimmed == "q" { return nil }
                picked = letters.contains(trimmed) ? trimmed : nil
            }
            if let picked, let index = letters.firstIndex(of: picked) {
                grade = index == correct ? .knew : .missed
                if !json {
                    if index == correct {
                        Console.out(green("Right."))
                    } else {
                        Console.out(red("Not quite: \(letters[correct])) is right."))
                        let wrong = card.distractors.first { $0.text == texts[index] }
                        if let why = wrong?.why, !why.isEmpty { printWrapped("The trap: ", why) }
                    }
                }
            }
            return MainAnswer(
                grade: grade, response: response, choices: texts, live: try await revealText(card), step: .next)
        }

        // Free recall.
        if input.isTerminal && !json {
            let key = input.key(prompt: bold("Think of your answer, then press any key to see it (q quits). "))
            Console.out("")
            if key == "q" { return nil }
        } else {
            guard let line = input.line() else {
                if !isFirst { return nil }
                return MainAnswer(
                    grade: .unscored, response: nil, choices: nil, live: try await revealText(card), step: .quit)
            }
            response = line
            if line.trimmingCharacters(in: .whitespaces).lowercased() == "q" { return nil }
            if !json && !line.trimmingCharacters(in: .whitespaces).isEmpty { printWrapped("You said: ", line) }
        }
        let live = try await revealText(card)
        let scored = readSelfGrade(prompt: "Did you know it? y yes · n no · e easy · q quit: ")
        return MainAnswer(
            grade: scored?.grade ?? grade, response: response, choices: nil, live: live, step: scored?.step ?? .quit)
    }

    /// The learner's own score: on a terminal a key, asked again until it is y, n, e or q; else a line. q quits
    /// (a key's q leaves the answer unscored). nil when the input has ended.
    private func readSelfGrade(prompt: String) -> (grade: QuizGrade, step: Step)? {
        if input.isTerminal && !json {
            var key = input.key(prompt: bold(prompt))
            while key != "q" && QuizGrade.fromRecall(key) == nil { key = input.key() }
            Console.out(key)
            return key == "q" ? (.unscored, .quit) : (QuizGrade.fromRecall(key) ?? .unscored, .next)
        }
        guard let line = input.line() else { return nil }
        let quits = line.trimmingCharacters(in: .whitespaces).lowercased() == "q"
        return (QuizGrade.fromRecall(line) ?? .unscored, quits ? .quit : .next)
    }

    /// One follow-up, recall style: the question; (terminal) a key reveals the answer and its deciding line, then y or
    /// n scores it; (pipe) a line is the learner's answer, the next the score. An input that ends leaves it unscored
    /// and asks no more follow-ups (the next question then finds the end); q quits the quiz.
    private func askFollowUp(_ followUp: FAQFollowUp, number: Int, of count: Int) -> (QuizFollowUpRecord?, Step) {
        if !json { printWrapped("Follow-up \(number)/\(count): ", followUp.question) }
        var response: String?
        if input.isTerminal && !json {
            let key = input.key(prompt: bold("Think, then press any key for the answer (q quits). "))
            Console.out("")
            if key == "q" { return (nil, .quit) }
        } else {
            guard let line = input.line() else { return (nil, .next) }
            if line.trimmingCharacters(in: .whitespaces).lowercased() == "q" { return (nil, .quit) }
            response = line
            if !json && !line.trimmingCharacters(in: .whitespaces).isEmpty { printWrapped("You said: ", line) }
        }
        if !json {
            printWrapped("→ ", followUp.answer)
            printWrapped("  ", followUp.original.link)
        }
        let scored = readSelfGrade(prompt: "Did you know it? y yes · n no · q quit: ")
        var grade = scored?.grade ?? .unscored
        let step = scored?.step ?? .next
        // Easy is for the card as a whole; a follow-up is known or missed.
        if grade == .easy { grade = .knew }
        return (
            QuizFollowUpRecord(
                question: followUp.question, answer: followUp.answer, original: followUp.original.link,
                response: response, grade: grade), step
        )
    }

    /// Runs the live probe and, unless printing JSON, prints the answer block. Returns the live value.
    private func revealText(_ card: QuizCard) async throws -> String {
        let live: String
        do {
            live = try await card.entry.live()
        } catch {
            live = "(could not read: \(error.localizedDescription))"
        }
        guard !json else { return live }
        printWrapped(label("Answer"), card.oneLine)
        if let versions = card.entry.versions { printWrapped(label("Versions"), versions) }
        printWrapped(label("Live"), live)
        printWrapped(label("Port"), card.portLine)
        for (index, line) in card.originalLines.enumerated() {
            printWrapped(index == 0 ? label("4.4.8") : label(""), line)
        }
        for (index, line) in card.original5Lines.enumerated() {
            printWrapped(index == 0 ? label("5.21.5") : label(""), line)
        }
        // Unwrapped, so it can be copied as one line.
        Console.out(label("Test") + card.testCommand)
        return live
    }

    /// Records the grade, saves the progress, says when the question comes back, and makes the JSON record.
    private mutating func finish(
        _ card: QuizCard, grade: QuizGrade, response: String?, choices: [String]?,
        live: String, followUps: [QuizFollowUpRecord]
    ) throws -> QuizRecord {
        progress.record(grade, for: card.id, at: Date())
        if grade != .unscored { try progress.save(to: stateFile) }
        let state = progress.cards[card.id]
        let record = QuizRecord(
            id: card.id, topic: card.topic.rawValue, question: card.entry.question,
            kind: choices == nil ? "recall" : "choice", choices: choices, response: response, grade: grade,
            answer: card.oneLine, live: live, port: card.portLine, original: card.originalLines,
            original5: card.original5Lines, test: card.testCommand, box: progress.box(of: card.id),
            due: grade == .unscored ? nil : state?.due, followUps: followUps)
        if json {
            Console.out(record.jsonLine())
        } else if grade == .unscored {
            Console.out(dim("Not scored."))
        } else {
            let days = Int(((QuizProgress.boxIntervals[record.box - 1]) / 86_400).rounded())
            let missedFollowUps = followUps.filter { $0.grade == .missed }.count
            Console.out(
                dim(
                    "Scored \(grade.rawValue)"
                        + (missedFollowUps > 0
                            ? " (\(missedFollowUps) follow-up\(missedFollowUps == 1 ? "" : "s") missed)" : "")
                        + ": box \(record.box), "
                        + (days == 0 ? "asked again this session." : "next due in \(days) day\(days == 1 ? "" : "s")."))
            )
        }
        return record
    }

    // MARK: Output

    private func label(_ name: String) -> String {
        (name.isEmpty ? "" : name + ":").padding(toLength: 10, withPad: " ", startingAt: 0)
    }

    /// `first` then `text` wrapped at 96 columns, continuation lines indented under the text.
    private func printWrapped(_ first: String, _ text: String) {
        let lines = TextWrap.lines(text, width: 96)
        for (index, line) in lines.enumerated() {
            Console.out((index == 0 ? first : String(repeating: " ", count: first.count)) + line)
        }
    }

    private func bold(_ text: String) -> String { colours ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
    private func dim(_ text: String) -> String { colours ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
    private func green(_ text: String) -> String { colours ? "\u{1B}[32m\(text)\u{1B}[0m" : text }
    private func red(_ text: String) -> String { colours ? "\u{1B}[31m\(text)\u{1B}[0m" : text }
}
