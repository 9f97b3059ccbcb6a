import Foundation
import SDPortTestSupport
import XCTest

@testable import sdport

/// `sdport quiz` as a person uses it: in a real pseudo-terminal (reveal with a key, score, quit, and the state
/// file under XDG_STATE_HOME), and in a pipe (answers read line by line, no prompts, no colours, and the end of
/// the input ends it); then the Leitner boxes, the card fallbacks and the multiple-choice cards one by one.
final class QuizTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "sdport-quiz")
    }

    override func tearDown() {
        directory?.remove()
        directory = nil
    }

    private var stateHome: String { directory.url.appendingPathComponent("state").path }
    private var stateFile: URL { URL(fileURLWithPath: stateHome).appendingPathComponent("sdport/quiz.json") }
    private var environment: [String: String] { ["XDG_STATE_HOME": stateHome, "TERM": "xterm"] }

    private func savedProgress() throws -> QuizProgress {
        try QuizProgress.load(from: stateFile)
    }

    /// Runs `sdport arguments` with `input` written to its stdin through a pipe that is then closed; fails the
    /// test (and kills the child) if it has not exited after a generous deadline, i.e. if it hangs.
    private func runPiped(_ arguments: [String], input: String) throws -> CLIProcess.Result {
        try CLIProcess.run(arguments, environment: environment, input: input)
    }

    // MARK: A person at a terminal

    /// Question 3 in a pseudo-terminal: any key reveals the answer, the live value and the deciding lines; y scores
    /// it (box 1 → 2, saved at once); the next question comes; q quits. The state file is where XDG_STATE_HOME says.
    func test_QUIZ_terminal_revealScoreQuitAndTheStateFile() throws {
        let terminal = try PseudoTerminal()
        let process = try terminal.start(
            ["quiz", "--recall", "--question", "3", "--seed", "7"], environment: environment,
            unset: ["NO_COLOR"])
        defer { process.send(SIGKILL) }

        XCTAssertTrue(terminal.waitFor("press any key to see it"), terminal.plainScreen)
        let third = try XCTUnwrap(FAQEntry.all.first { $0.number == 3 })
        XCTAssertTrue(terminal.plainScreen.contains("Q: \(third.question)"), terminal.plainScreen)
        XCTAssertFalse(terminal.plainScreen.contains("Answer:"), "the answer waits for the key")
        terminal.type(" ")
        XCTAssertTrue(terminal.waitFor("Did you know it?"), terminal.plainScreen)
        let revealed = terminal.plainScreen
        let card = QuizCard(entry: third)
        XCTAssertTrue(revealed.contains("Answer:   " + card.oneLine.prefix(30)), revealed)
        XCTAssertTrue(revealed.contains("Live:     cachePath(forKey:"), revealed)
        XCTAssertTrue(revealed.contains("Port:     Sources/SDPort/Cache/SDImageCache+FileName.swift · "), revealed)
        XCTAssertTrue(
            revealed.contains("https://github.com/SDWebImage/SDWebImage/blob/4.4.8/SDWebImage/SDImageCache.m#L"),
            revealed)
        XCTAssertTrue(
            revealed.contains("Test:     swift test --disable-swift-testing --filter FAQ03_FileNamingTests."), revealed)
        XCTAssertTrue(terminal.screen.contains("\u{1B}[1m"), "a terminal gets bold prompts")

        terminal.type("y")
        answerFollowUps(of: card, in: terminal)
        XCTAssertTrue(terminal.waitFor("press any key to see it", occurrences: 2), terminal.plainScreen)
        XCTAssertTrue(terminal.plainScreen.contains("Scored knew: box 2, next due in 1 day."), terminal.plainScreen)
        XCTAssertEqual(try savedProgress().cards["FAQ-03"]?.box, 2, "saved as soon as it was scored")
        terminal.type("q")
        XCTAssertTrue(terminal.waitUntilClosed(), "q quits: \(terminal.plainScreen)")
        XCTAssertEqual(try process.wait(deadline: 30).code, 0, terminal.plainScreen)
        XCTAssertTrue(
            terminal.plainScreen.contains("1 asked, 1 scored, 1 known. Progress: \(stateFile.path)"),
            terminal.plainScreen)

        let progress = try savedProgress()
        XCTAssertEqual(progress.cards.count, 1, "the quit question is not scored: \(progress.cards)")
        XCTAssertEqual(progress.cards["FAQ-03"]?.last, .knew)
        XCTAssertEqual(progress.cards["FAQ-03"]?.asked, 1)
    }

    /// Question 2 in a pseudo-terminal without `--recall`: multiple choice once it has a trap or a myth (the right
    /// letter is worked out from the same seed; it is scored at once), else free recall. Either way one key
    /// answers, the answer block follows, and the progress moves FAQ-02 to box 2.
    func test_QUIZ_terminal_choiceWhenThereIsATrapElseRecall() throws {
        let card = QuizCard(entry: try XCTUnwrap(FAQEntry.all.first { $0.number == 2 }))
        let terminal = try PseudoTerminal()
        let process = try terminal.start(
            ["quiz", "--question", "2", "--seed", "5"], environment: environment,
            unset: ["NO_COLOR"])
        defer { process.send(SIGKILL) }
        if card.isMultipleChoice {
            var random = QuizRandom(seed: 5)
            let (texts, correct) = card.choices(using: &random)
            XCTAssertTrue(terminal.waitFor("Your choice (a–"), terminal.plainScreen)
            for (index, text) in texts.enumerated() {
                let letter = String(UnicodeScalar(UInt8(97 + index)))
                XCTAssertTrue(terminal.plainScreen.contains("  \(letter)) " + text.prefix(30)), terminal.plainScreen)
            }
            terminal.type(String(UnicodeScalar(UInt8(97 + correct))))
            XCTAssertTrue(terminal.waitFor("Right."), terminal.plainScreen)
        } else {
            XCTAssertTrue(terminal.waitFor("press any key to see it"), terminal.plainScreen)
            terminal.type("\r")
            XCTAssertTrue(terminal.waitFor("Did you know it?"), terminal.plainScreen)
            terminal.type("y")
        }
        answerFollowUps(of: card, in: terminal)
        XCTAssertTrue(terminal.waitFor("Scored knew: box 2"), terminal.plainScreen)
        XCTAssertTrue(terminal.plainScreen.contains("Answer:   " + card.oneLine.prefix(30)), terminal.plainScreen)
        // The next question's prompt (recall or choice), printed once the terminal is in key mode: after the first
        // question's and each of its follow-ups' prompts.
        XCTAssertTrue(terminal.waitFor("q quits)", occurrences: card.followUps.count + 2), terminal.plainScreen)
        terminal.type("\u{3}")  // Ctrl-C at the next question quits like q (signals are off while a key is read)
        XCTAssertTrue(terminal.waitUntilClosed(), terminal.plainScreen)
        XCTAssertEqual(try process.wait(deadline: 30).code, 0, terminal.plainScreen)
        XCTAssertEqual(try savedProgress().cards["FAQ-02"]?.box, 2)
    }

    /// Answers every follow-up of `card` in the terminal: a key reveals it, then `grades[i]` (default y) scores it.
    private func answerFollowUps(
        of card: QuizCard, in terminal: PseudoTerminal, grades: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let count = card.followUps.count
        for index in 0..<count {
            XCTAssertTrue(
                terminal.waitFor("Follow-up \(index + 1)/\(count): "), terminal.plainScreen, file: file, line: line)
            XCTAssertTrue(
                terminal.waitFor("press any key for the answer", occurrences: index + 1), terminal.plainScreen,
                file: file, line: line)
            terminal.type(" ")
            XCTAssertTrue(
                terminal.waitFor("Did you know it? y yes · n no · q quit: ", occurrences: index + 1),
                terminal.plainScreen, file: file, line: line)
            terminal.type(index < grades.count ? grades[index] : "y")
        }
    }

    /// FAQ-07 in a pseudo-terminal: the main question (multiple choice, answered right), then its follow-ups one by
    /// one after the main answer block, each revealed by a key with its deciding line at its tag; the first is missed
    /// (n), the rest known, and the card counts as a miss: back to box 1, due again this session, missed once.
    func test_QUIZ_terminal_followUpsComeAfterTheMainQuestionAndAMissedOneIsAMiss() throws {
        let card = QuizCard(entry: try XCTUnwrap(FAQEntry.all.first { $0.number == 7 }))
        XCTAssertTrue(card.isMultipleChoice)
        XCTAssertGreaterThanOrEqual(card.followUps.count, 3)
        let terminal = try PseudoTerminal()
        let process = try terminal.start(
            ["quiz", "--question", "7", "--seed", "11"], environment: environment,
            unset: ["NO_COLOR"])
        defer { process.send(SIGKILL) }
        var random = QuizRandom(seed: 11)
        let (_, correct) = card.choices(using: &random)
        XCTAssertTrue(terminal.waitFor("Your choice (a–"), terminal.plainScreen)
        XCTAssertFalse(terminal.plainScreen.contains("Follow-up"), "no follow-up before the main question is answered")
        terminal.type(String(UnicodeScalar(UInt8(97 + correct))))
        XCTAssertTrue(terminal.waitFor("Follow-up 1/\(card.followUps.count): "), terminal.plainScreen)
        let first = card.followUps[0]
        let screen = terminal.plainScreen
        let order = ["Right.", "Answer:   ", "Test:     ", "Follow-up 1/"].map { screen.range(of: $0)?.lowerBound }
        XCTAssertFalse(order.contains(nil), screen)
        XCTAssertEqual(
            order.compactMap { $0 }, order.compactMap { $0 }.sorted(), "main answer block, then the follow-up")
        XCTAssertTrue(screen.contains(first.question.prefix(20)), screen)
        XCTAssertFalse(screen.contains(first.answer.prefix(30)), "the answer waits for the key")
        answerFollowUps(of: card, in: terminal, grades: ["n"])
        XCTAssertTrue(terminal.plainScreen.contains("→ " + first.answer.prefix(30)), terminal.plainScreen)
        XCTAssertTrue(terminal.plainScreen.contains(first.original.link), terminal.plainScreen)
        XCTAssertTrue(
            first.original.link.hasPrefix("https://github.com/SDWebImage/SDWebImage/blob/\(first.original.tag)/"))
        XCTAssertTrue(
            terminal.waitFor("Scored missed (1 follow-up missed): box 1, asked again this session."),
            terminal.plainScreen)
        let saved = try savedProgress().cards["FAQ-07"]
        XCTAssertEqual(saved?.box, 1, "a missed follow-up sends the card back to box 1")
        XCTAssertEqual(saved?.missed, 1)
        XCTAssertEqual(saved?.last, .missed)
        XCTAssertTrue(terminal.waitFor("q quits)", occurrences: card.followUps.count + 2), terminal.plainScreen)
        terminal.type("q")
        XCTAssertTrue(terminal.waitUntilClosed(), terminal.plainScreen)
        XCTAssertEqual(try process.wait(deadline: 30).code, 0, terminal.plainScreen)
    }

    // MARK: A pipe

    /// The same question from a pipe: the first line is the answer (shown back), the second the score; no prompt
    /// and no colour codes; it ends after one question and the progress is saved.
    func test_QUIZ_pipe_answersLineByLineWithoutPrompts() throws {
        let result = try runPiped(["quiz", "--recall", "--question", "3"], input: "md5 of the key\nn\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("You said: md5 of the key"), result.stdout)
        XCTAssertTrue(result.stdout.contains("Answer:"), result.stdout)
        XCTAssertTrue(result.stdout.contains("Scored missed: box 1, asked again this session."), result.stdout)
        XCTAssertFalse(result.stdout.contains("press any key"), "no prompts in a pipe")
        XCTAssertFalse(result.stdout.contains("Did you know"), "no prompts in a pipe")
        XCTAssertFalse(result.stdout.contains("\u{1B}"), "no colours in a pipe")
        XCTAssertEqual(try savedProgress().cards["FAQ-03"]?.missed, 1)
    }

    /// Empty input: the question and its answer are shown, unscored, nothing is saved, and it ends at once rather
    /// than waiting. Asking for three questions stops at the end of the input too.
    func test_QUIZ_pipe_endOfInputEndsTheQuiz() throws {
        let empty = try runPiped(["quiz", "--count", "3", "--topic", "cache"], input: "")
        XCTAssertEqual(empty.status, 0, empty.stderr)
        XCTAssertEqual(empty.stdout.components(separatedBy: "Q: ").count - 1, 1, empty.stdout)
        XCTAssertTrue(empty.stdout.contains("Answer:"), empty.stdout)
        XCTAssertTrue(empty.stdout.contains("Not scored."), empty.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stateFile.path), "nothing scored, nothing written")

        // Three asked for, input for one: the second question is shown, finds the input ended, and the quiz ends.
        let oneOfThree = try runPiped(["quiz", "--recall", "--count", "3", "--question", "3"], input: "a\ny\n")
        XCTAssertEqual(oneOfThree.status, 0, oneOfThree.stderr)
        XCTAssertEqual(oneOfThree.stdout.components(separatedBy: "Q: ").count - 1, 2, oneOfThree.stdout)
        XCTAssertTrue(oneOfThree.stdout.contains("1 asked, 1 scored, 1 known."), oneOfThree.stdout)
        XCTAssertEqual(try savedProgress().cards.keys.sorted(), ["FAQ-03"])
    }

    /// A reader that stops reading (`sdport quiz | head -1`) while SIGPIPE is ignored (as a parent such as an IDE or
    /// a CI runner may leave it; the shell's `trap '' PIPE` does it here): the write fails with EPIPE and the quiz
    /// ends quietly with status 0 instead of trapping. (With SIGPIPE at its default the signal ends it first.)
    func test_QUIZ_pipe_readerThatGoesAwayEndsTheQuizQuietly() throws {
        let process = try ChildProcess(
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: [
                "-c", "trap '' PIPE; exec \"$0\" \"$@\"", try CLIProcess.binary().path,
                "quiz", "--recall", "--count", "3", "--question", "3",
            ],
            directory: CLIProcess.packageRoot,
            environment: ProcessInfo.processInfo.environment.merging(environment) { _, new in new },
            stdin: .pipe, stdout: .closedPipe)  // gone before the first line is written
        try process.input?.write(contentsOf: Data("a\ny\nb\nn\n".utf8))
        try process.input?.close()
        let exit = try process.wait(deadline: CLIProcess.defaultDeadline)
        let text = process.text(2)
        XCTAssertEqual(exit.reason, .exit, text)
        XCTAssertEqual(exit.code, 0, text)
        XCTAssertFalse(text.contains("Fatal error"), text)
    }

    /// `--json`: one object per question with the answer, the live value, the lines and the grade; `--reset`
    /// removes the state file.
    func test_QUIZ_jsonThenReset() throws {
        let result = try runPiped(["quiz", "--json", "--recall", "--question", "2"], input: "six\ny\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, result.stdout)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        XCTAssertEqual(object["id"] as? String, "FAQ-02")
        XCTAssertEqual(object["topic"] as? String, "downloader")
        XCTAssertEqual(object["grade"] as? String, "knew")
        XCTAssertEqual(object["box"] as? Int, 2)
        XCTAssertEqual(object["response"] as? String, "six")
        // The live value as the running code reads it: 4.4.8's six downloads at once and 15 s timeout.
        XCTAssertEqual(
            object["live"] as? String, "SDWebImageDownloader().maxConcurrentDownloads = 6, downloadTimeout = 15.0 s")
        XCTAssertTrue(
            (object["test"] as? String)?.hasPrefix("swift test --disable-swift-testing --filter FAQ02_") == true)
        XCTAssertTrue(FileManager.default.fileExists(atPath: stateFile.path))

        let reset = try runPiped(["quiz", "--reset"], input: "")
        XCTAssertEqual(reset.status, 0, reset.stderr)
        XCTAssertTrue(reset.stdout.contains("Progress cleared"), reset.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stateFile.path))
    }

    /// From a pipe with `--json`: the main answer and score, then one answer and one score per follow-up; all known
    /// keeps the card known, one n makes it missed, and the record lists each follow-up with its deciding line.
    func test_QUIZ_pipe_followUpsAreAnsweredLineByLineAndAMissCounts() throws {
        let card = QuizCard(entry: try XCTUnwrap(FAQEntry.all.first { $0.number == 12 }))
        let count = card.followUps.count
        let known = try runPiped(
            ["quiz", "--json", "--recall", "--question", "12"],
            input: "image/*\ny\n" + String(repeating: "x\ny\n", count: count))
        XCTAssertEqual(known.status, 0, known.stderr)
        var object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(known.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["grade"] as? String, "knew")
        var followUps = try XCTUnwrap(object["followUps"] as? [[String: Any]])
        XCTAssertEqual(followUps.count, count)
        XCTAssertEqual(followUps.map { $0["grade"] as? String }, Array(repeating: "knew", count: count))
        XCTAssertEqual(followUps.first?["original"] as? String, card.followUps.first?.original.link)
        XCTAssertEqual(try savedProgress().cards["FAQ-12"]?.box, 2)

        let missed = try runPiped(
            ["quiz", "--json", "--recall", "--question", "12"],
            input: "image/*\ny\nx\ny\nx\nn\n" + String(repeating: "x\ny\n", count: count - 2))
        XCTAssertEqual(missed.status, 0, missed.stderr)
        object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(missed.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["grade"] as? String, "missed", "the main answer was known, the second follow-up was not")
        followUps = try XCTUnwrap(object["followUps"] as? [[String: Any]])
        XCTAssertEqual(followUps[1]["grade"] as? String, "missed")
        XCTAssertEqual(try savedProgress().cards["FAQ-12"]?.box, 1)
        XCTAssertEqual(try savedProgress().cards["FAQ-12"]?.missed, 1)
    }

    /// A state file that is not the quiz's JSON: one clear error line, the file left alone.
    func test_QUIZ_corruptStateFileIsAClearErrorAndKept() throws {
        try FileManager.default.createDirectory(
            at: stateFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{ not json".utf8).write(to: stateFile)
        let result = try runPiped(["quiz", "--question", "1"], input: "")
        XCTAssertEqual(result.status, 3)
        XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("sdport quiz --reset"), result.stderr)
        XCTAssertEqual(try Data(contentsOf: stateFile), Data("{ not json".utf8))
    }

    // MARK: Leitner boxes

    func test_QUIZ_leitner_missedBackToBoxOneKnewUpOneEasyUpTwo() {
        var progress = QuizProgress()
        let now = Date(timeIntervalSince1970: 1_000_000)
        progress.record(.knew, for: "FAQ-01", at: now)
        XCTAssertEqual(progress.cards["FAQ-01"]?.box, 2)
        XCTAssertEqual(progress.cards["FAQ-01"]?.due, now.addingTimeInterval(86_400))
        progress.record(.easy, for: "FAQ-01", at: now)
        XCTAssertEqual(progress.cards["FAQ-01"]?.box, 4)
        XCTAssertEqual(progress.cards["FAQ-01"]?.due, now.addingTimeInterval(7 * 86_400))
        progress.record(.easy, for: "FAQ-01", at: now)
        XCTAssertEqual(progress.cards["FAQ-01"]?.box, 5, "five boxes")
        progress.record(.missed, for: "FAQ-01", at: now)
        XCTAssertEqual(progress.cards["FAQ-01"]?.box, 1)
        XCTAssertEqual(progress.cards["FAQ-01"]?.due, now, "a missed question is due again at once")
        XCTAssertEqual(progress.cards["FAQ-01"]?.missed, 1)
        progress.record(.unscored, for: "FAQ-02", at: now)
        XCTAssertNil(progress.cards["FAQ-02"])
    }

    func test_QUIZ_leitner_nextAsksMissedBeforeKnownAndNeverTwiceInARow() {
        var progress = QuizProgress()
        let now = Date(timeIntervalSince1970: 1_000_000)
        var random = QuizRandom(seed: 1)
        progress.record(.knew, for: "A", at: now)  // due tomorrow
        progress.record(.missed, for: "B", at: now)  // due now, box 1
        XCTAssertEqual(progress.next(among: ["A", "B"], avoiding: nil, at: now, using: &random)?.id, "B")
        let other = progress.next(among: ["A", "B"], avoiding: "B", at: now, using: &random)
        XCTAssertEqual(other?.id, "A", "not the same question twice in a row")
        XCTAssertEqual(other?.practisingAhead, true, "A is not due until tomorrow")
        XCTAssertEqual(
            progress.next(among: ["B"], avoiding: "B", at: now, using: &random)?.id, "B",
            "the only question may repeat")
        XCTAssertEqual(
            progress.next(among: ["A", "B"], avoiding: "B", at: now.addingTimeInterval(86_400), using: &random)?
                .practisingAhead,
            false)
    }

    func test_QUIZ_stateDirectoryFollowsXDGStateHomeElseHome() {
        XCTAssertEqual(
            QuizProgress.file(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]).path, "/s/sdport/quiz.json")
        XCTAssertEqual(QuizProgress.file(environment: ["HOME": "/h"]).path, "/h/.local/state/sdport/quiz.json")
        XCTAssertEqual(
            QuizProgress.file(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"]).path,
            "/h/.local/state/sdport/quiz.json", "XDG: a relative path is ignored")
    }

    // MARK: Cards

    func test_QUIZ_card_fallbacksWhileTheTeachingFieldsAreEmpty() throws {
        // FAQ-03 with its teaching fields emptied (today it has them): the one-line answer is the answer's first
        // sentence, and with no quiz options the card is free recall (a trap alone makes no options).
        var third = try XCTUnwrap(FAQEntry.all.first { $0.number == 3 })
        XCTAssertNotNil(third.oneLine, "FAQ-03 has its own one-line answer, which the card uses")
        XCTAssertEqual(QuizCard(entry: third).oneLine, third.oneLine)
        third.oneLine = nil
        third.quiz = nil
        let card = QuizCard(entry: third)
        XCTAssertEqual(card.oneLine, QuizCard.firstSentence(of: third.answer))
        XCTAssertTrue(third.answer.hasPrefix(card.oneLine), card.oneLine)
        XCTAssertLessThan(card.oneLine.count, third.answer.count, "one sentence, not the whole answer")
        XCTAssertNotNil(third.trap)
        XCTAssertFalse(card.isMultipleChoice)
        third.oneLine = "   "
        XCTAssertEqual(QuizCard(entry: third).oneLine, card.oneLine, "a blank one-line answer counts as none")
        XCTAssertEqual(QuizTopic.derived(fromPortFile: "Sources/SDPort/WebCache/UIView+WebCache.swift"), .views)
        XCTAssertEqual(QuizTopic.derived(fromPortFile: "Sources/SDPort/Define/Data+ImageContentType.swift"), .coders)
        XCTAssertEqual(QuizTopic.derived(fromPortFile: "Sources/SDPort/Define/SDImageCacheType.swift"), .cache)
        XCTAssertEqual(QuizTopic.derived(fromPortFile: "Sources/SDPort/Define/SDWebImageOptions.swift"), .manager)
        XCTAssertEqual(QuizCard.firstSentence(of: "One e.g. two. Three."), "One e.g. two.")
        XCTAssertEqual(QuizCard.firstSentence(of: "No full stop"), "No full stop")
    }

    /// With quiz options a card is multiple choice: its own right option among its own wrong ones (never the one-line
    /// answer, never a myth), placed at a random position; a wrong pick shows the card's trap.
    func test_QUIZ_card_optionsComeFromTheCardItself() throws {
        var entry = try XCTUnwrap(FAQEntry.all.first { $0.number == 2 })
        entry.oneLine = "Six at once, 15 s timeout."
        entry.trap = "Saying unlimited downloads: the queue has a limit of 6."
        entry.quiz = FAQQuizOptions(
            right: "Six at once and 15 seconds per request.",
            wrong: ["Unlimited downloads, 60 seconds.", "One at a time, no timeout.", "Three at once, 15 seconds."])
        let card = QuizCard(entry: entry)
        XCTAssertTrue(card.isMultipleChoice)
        XCTAssertEqual(card.rightOption, "Six at once and 15 seconds per request.")
        XCTAssertEqual(
            card.distractors.map(\.text),
            [
                "Unlimited downloads, 60 seconds.", "One at a time, no timeout.",
                "Three at once, 15 seconds.",
            ])
        XCTAssertEqual(card.distractors.first?.why, "Saying unlimited downloads: the queue has a limit of 6.")
        var random = QuizRandom(seed: 3)
        let (texts, correct) = card.choices(using: &random)
        XCTAssertEqual(texts.count, 4)
        XCTAssertEqual(texts[correct], "Six at once and 15 seconds per request.")
        XCTAssertEqual(Set(texts), Set([card.rightOption] + card.distractors.map(\.text)))
        XCTAssertFalse(texts.contains(entry.oneLine!), "the one-line answer is shown after, not offered")
        let myths = Set(Myth.all.map(\.belief))
        for card in QuizCard.all(topic: nil) {
            XCTAssertTrue(Set(card.distractors.map(\.text)).isDisjoint(with: myths), "\(card.id) offers a myth")
            XCTAssertEqual(card.distractors.map(\.text), card.entry.quiz?.wrong, card.id)
        }
    }

    /// A topic that no question has is a usage error naming the topics that have some (not a hang, not a crash):
    /// shown on the FAQ without its views question (today every topic has one); through the command, a topic
    /// with questions runs and an unknown topic is a usage error.
    func test_QUIZ_topicWithoutQuestionsIsAUsageError() throws {
        let withoutViews = FAQEntry.all.filter { QuizTopic.of($0) != .views }
        XCTAssertLessThan(withoutViews.count, FAQEntry.all.count, "some question has the topic views")
        XCTAssertThrowsError(try QuizCommand.cards(topic: .views, entries: withoutViews)) { error in
            let failure = error as? SDPortFailure
            XCTAssertEqual(failure?.code, .usage)
            XCTAssertEqual(
                failure?.message,
                "no question has the topic views yet; topics with questions: "
                    + "cache, coders, downloader, manager")
        }
        XCTAssertEqual(try QuizCommand.cards(topic: .views).map(\.topic), [QuizTopic](repeating: .views, count: 1))

        let views = try runPiped(["quiz", "--topic", "views"], input: "")
        XCTAssertEqual(views.status, 0, views.stderr)
        XCTAssertEqual(views.stdout.components(separatedBy: "Q: ").count - 1, 1, views.stdout)
        let bad = try runPiped(["quiz", "--topic", "network"], input: "")
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.stderrLines.count, 1, bad.stderr)
    }
}
