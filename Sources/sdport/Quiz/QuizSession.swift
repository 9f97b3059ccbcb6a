import Foundation

/// One run of `sdport quiz`: asks questions until the learner quits, the input ends or `limit` questions were
/// asked; scores each, moves it between Leitner boxes and saves the progress after every question.
///
/// Free recall: the question, then (terminal) any key reveals the answer, then y / n / e scores it; (pipe) the
/// first line is the learner's answer, shown back, the next line the score. Multiple choice: the choices, then a
/// letter (key or line), scored at once. After either, the one-line answer, the live probe, the deciding lines of
/// the port and of 4.4.8, and the test command. In a pipe no prompt is printed, and when the input ends before the
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

    private mutating func ask(_ card: QuizCard, practisingAhead: Bool, isFirst: Bool) async throws
        -> (QuizRecord?, Step) {
        let box = progress.box(of: card.id)
        if !json {
            if !isFirst { Console.out("") }
            Console.out(dim("\(card.id) · \(card.topic.rawValue) · box \(box)" + (practisingAhead ? " · practising ahead" : "")))
            Console.out(bold("Q: " + card.entry.question))
        }
        var grade = QuizGrade.unscored
        var response: String?
        var choiceTexts: [String]?
        var step = Step.next

        let multipleChoice = card.isMultipleChoice && !recallOnly
        if multipleChoice {
            let (texts, correct) = card.choices(using: &random)
            choiceTexts = texts
            let letters = texts.indices.map { String(UnicodeScalar(UInt8(97 + $0))) }
            if !json {
                for (letter, text) in zip(letters, texts) { printWrapped("  \(letter)) ", text) }
            }
            let picked: String?
            if input.isTerminal && !json {
                var key = input.key(prompt: bold("Your choice (\(letters.first!)–\(letters.last!), q quits): "))
                while key != "q" && !letters.contains(key) { key = input.key() }
                Console.out(key)
                if key == "q" { return (nil, .quit) }
                picked = key
            } else {
                guard let line = input.line() else {
                    if !isFirst { return (nil, .quit) }
                    step = .quit
                    return (try await reveal(card, grade: .unscored, response: nil, choices: texts), step)
                }
                response = line
                let trimmed = line.trimmingCharacters(in: .whitespaces).lowercased()
                if trimmed == "q" { return (nil, .quit) }
                picked = letters.contains(trimmed) ? trimmed : nil
            }
            if let picked, let index = letters.firstIndex(of: picked) {
                grade = index == correct ? .knew : .missed
                if !json {
                    if index == correct {
                        Console.out(green("Right."))
                    } else {
                        let wrong = card.distractors.first { $0.text == texts[index] }
                        Console.out(red("Not quite: \(letters[correct])) is right."))
                        if let wrong { printWrapped("Why not:  ", wrong.why) }
                    }
                }
            }
            return (try await reveal(card, grade: grade, response: response, choices: choiceTexts), step)
        }

        // Free recall.
        if input.isTerminal && !json {
            let key = input.key(prompt: bold("Think of your answer, then press any key to see it (q quits). "))
            Console.out("")
            if key == "q" { return (nil, .quit) }
        } else {
            guard let line = input.line() else {
                if !isFirst { return (nil, .quit) }
                return (try await reveal(card, grade: .unscored, response: nil, choices: nil), .quit)
            }
            response = line
            if line.trimmingCharacters(in: .whitespaces).lowercased() == "q" { return (nil, .quit) }
            if !json && !line.trimmingCharacters(in: .whitespaces).isEmpty { printWrapped("You said: ", line) }
        }
        let shown = try await revealText(card)
        if input.isTerminal && !json {
            var key = input.key(prompt: bold("Did you know it? y yes · n no · e easy · q quit: "))
            while key != "q" && QuizGrade.fromRecall(key) == nil { key = input.key() }
            Console.out(key)
            if key == "q" { step = .quit } else { grade = QuizGrade.fromRecall(key) ?? .unscored }
        } else if let line = input.line() {
            if line.trimmingCharacters(in: .whitespaces).lowercased() == "q" { step = .quit }
            grade = QuizGrade.fromRecall(line) ?? .unscored
        } else {
            step = .quit
        }
        return (try finish(card, grade: grade, response: response, choices: nil, live: shown), step)
    }

    /// Shows the answer block, then records `grade`.
    private mutating func reveal(_ card: QuizCard, grade: QuizGrade, response: String?, choices: [String]?) async throws
        -> QuizRecord {
        let live = try await revealText(card)
        return try finish(card, grade: grade, response: response, choices: choices, live: live)
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
        for (index, line) in card.originalLines.enumerated() { printWrapped(index == 0 ? label("4.4.8") : label(""), line) }
        for (index, line) in card.original5Lines.enumerated() { printWrapped(index == 0 ? label("5.21.5") : label(""), line) }
        // Unwrapped, so it can be copied as one line.
        Console.out(label("Test") + card.testCommand)
        return live
    }

    /// Records the grade, saves the progress, says when the question comes back, and makes the JSON record.
    private mutating func finish(_ card: QuizCard, grade: QuizGrade, response: String?, choices: [String]?,
                                 live: String) throws -> QuizRecord {
        progress.record(grade, for: card.id, at: Date())
        if grade != .unscored { try progress.save(to: stateFile) }
        let state = progress.cards[card.id]
        let record = QuizRecord(
            id: card.id, topic: card.topic.rawValue, question: card.entry.question,
            kind: choices == nil ? "recall" : "choice", choices: choices, response: response, grade: grade,
            answer: card.oneLine, live: live, port: card.portLine, original: card.originalLines,
            original5: card.original5Lines, test: card.testCommand, box: progress.box(of: card.id),
            due: grade == .unscored ? nil : state?.due)
        if json {
            Console.out(record.jsonLine())
        } else if grade == .unscored {
            Console.out(dim("Not scored."))
        } else {
            let days = Int(((QuizProgress.boxIntervals[record.box - 1]) / 86_400).rounded())
            Console.out(dim("Scored \(grade.rawValue): box \(record.box), "
                + (days == 0 ? "asked again this session." : "next due in \(days) day\(days == 1 ? "" : "s").")))
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
