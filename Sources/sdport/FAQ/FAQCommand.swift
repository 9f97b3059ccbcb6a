import ArgumentParser
import Foundation

/// `sdport faq [N]`: the interview questions, each with its 30-second answer first, then the follow-ups an interviewer
/// asks next (each with its deciding line at its version), then the detail: the answer, a value read from the running
/// code that proves it, where the port answers it, and the test that proves it.
struct FAQCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faq",
        abstract: "Answer the 17 interview questions with values read from the running code.",
        discussion:
            "Each entry prints its question card: the 30-second answer, the follow-ups (question, answer and the "
            + "original's deciding line at the version it is about, as a GitHub link), then the answer in one line, the "
            + "answer, the trap, the versions, a live value, the port's file and symbol, the tests under Tests/Interview "
            + "and the command that runs them, the drill, and the 4.4.8 lines that decide the answer.")

    @Argument(help: "Only this question (1 to \(FAQEntry.all.count)).")
    var number: Int?

    @Flag(name: .long, help: "Print the Markdown table used by Docs/walkthrough/07-faq.md (no live values).")
    var markdown = false

    @Flag(
        name: .long,
        help:
            "Print the cards as JSON: per card its short answer and followUps (question, answer, original), then the rest (no live values)."
    )
    var json = false

    func validate() throws {
        if markdown && json { throw ValidationError("--markdown and --json are exclusive") }
    }

    func run() async throws {
        let knowledge = try Knowledge.load()
        if let number, !knowledge.faq.contains(where: { $0.number == number }) {
            throw SDPortFailure(.usage, "there is no question \(number); pick 1 to \(knowledge.faq.count)")
        }
        let entries = knowledge.faq.filter { number == nil || $0.number == number }
        if json {
            Console.out(try FAQCardJSON.render(entries))
            return
        }
        if markdown {
            Console.out(FAQMarkdown.render(entries))
            if number == nil {
                Console.out("<!-- MYTHS -->")
                Console.out(MythMarkdown.render(knowledge.myths))
            }
            return
        }
        for (index, entry) in entries.enumerated() {
            if index > 0 { Console.out("") }
            let live: String
            do {
                live = try await entry.live()
            } catch {
                live = "(could not read: \(error.localizedDescription))"
            }
            Console.out("\(entry.parityID)  \(entry.question)")
            if let short = entry.short { printField("In 30 s", short) }
            for (index, followUp) in entry.followUps.enumerated() {
                printField("Next \(index + 1)", followUp.question)
                printField("", "→ " + followUp.answer)
                printField("", followUp.original.link)
            }
            if let oneLine = entry.oneLine { printField("In short", oneLine) }
            printField("Answer", entry.answer)
            if let trap = entry.trap { printField("Trap", trap) }
            if let versions = entry.versions { printField("Versions", versions) }
            printField("Live", live)
            printField("Code", entry.port.text)
            printField("Test", entry.test)
            printField("Run", "swift test --disable-swift-testing --filter \(entry.testFilter)")
            if let drill = entry.drill {
                printField(
                    "Drill",
                    "sdport drill \(entry.number): \(drill.rule)"
                        + (drill.predict.map { " Predict: \($0)" } ?? "")
                        + (drill.expect.map { " Expect: \($0)" } ?? ""))
            }
            if let deciding = entry.deciding {
                let lines = OriginalLineTable.decidingCitations(for: deciding)
                printField(
                    "Decides",
                    lines.map { $0.map { "\($0.location) \($0.link)" } ?? "(unresolved)" }.joined(separator: "; "))
            }
            printField("Original", entry.original)
            let lines = OriginalLineTable.citations(for: entry.original).compactMap { $0 }
            if !lines.isEmpty {
                printField("At 4.4.8", lines.map { "\($0.location) \($0.link)" }.joined(separator: "; "))
            }
            if let original5 = entry.original5 {
                let lines5 = OriginalLineTable.citations5(for: original5).compactMap { $0 }
                printField("5.x", original5)
                printField("At 5.x", lines5.map { "\($0.location) \($0.link)" }.joined(separator: "; "))
            }
        }
    }

    private func printField(_ name: String, _ value: String) {
        let label = "  " + (name.isEmpty ? "" : name + ":").padding(toLength: 10, withPad: " ", startingAt: 0)
        let lines = TextWrap.lines(value, width: 96)
        for (index, line) in lines.enumerated() {
            Console.out((index == 0 ? label : String(repeating: " ", count: label.count)) + line)
        }
    }
}
