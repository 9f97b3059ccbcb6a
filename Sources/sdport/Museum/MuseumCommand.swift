import ArgumentParser
import Foundation

/// `sdport museum [N]`: the bug museum. Without N, lists the exhibits, one line each; with N, tells the exhibit's
/// story (symptom, upstream issue and fix, the 4.4.8 lines with links, mechanism, lesson), runs its unpatched side
/// live and prints what happened, then shows the patch. `--verify` runs `scripts/museum.sh verify N` (both sides,
/// the patched one in a scratch copy); `--json` prints the same as data. Reads `Museum/` from the checkout found
/// from the current directory upward.
struct MuseumCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "museum",
        abstract: "The bug museum: 4.4.8's real bugs, reproduced on the port and fixed beside it.",
        discussion: "Run it inside an SDPort checkout (it reads Museum/). `sdport museum 3` tells exhibit MUS-03's "
            + "story and runs its unpatched side; `--verify` also proves the patched side in a scratch copy.")

    @Argument(help: "The exhibit (1 to 19); none lists them.")
    var number: Int?

    @Flag(help: "Run scripts/museum.sh verify N: apply the patch in a scratch copy and run both sides.")
    var verify = false

    @Flag(help: "Print the list or the exhibit as JSON.")
    var json = false

    @Flag(name: .customLong("no-run"), help: "Tell the story without running the unpatched side.")
    var noRun = false

    @Flag(help: "Draw the exhibit's run as a Mermaid sequence diagram instead (exhibits 1, 2, 3, 9).")
    var diagram = false

    @Option(help: "The side the diagram is labelled with (faithful or fixed; scripts/museum.sh diagrams sets it).")
    var side: String = "as-built"

    @Option(
        help: "The scratch path for `swift test` when a side runs through the tests (default: the checkout's .build).")
    var scratchPath: String?

    func run() async throws {
        guard let root = MuseumCheckout.root() else {
            throw SDPortFailure(
                .usage,
                "sdport museum must run inside an SDPort checkout (no Package.swift with Museum/ "
                    + "in the current directory or above)")
        }
        let exhibits = try MuseumExhibit.loadAll(from: root)
        guard let number else {
            if json {
                Console.out(try MuseumText.json(exhibits))
            } else {
                for exhibit in exhibits { Console.out(MuseumText.listLine(exhibit)) }
                Console.out(
                    "\(exhibits.count) exhibits. `sdport museum N` tells one's story and runs it; "
                        + "`--verify` proves both sides.")
            }
            return
        }
        guard let exhibit = exhibits.first(where: { $0.number == number }) else {
            throw SDPortFailure(.usage, "there is no exhibit \(number); pick 1 to \(exhibits.count)")
        }
        if diagram {
            let drawn = try await MuseumDiagramRun.run(exhibit, side: side)
            Console.out(drawn.markdown)
            return
        }
        let patch = exhibit.patchText(root: root)
        if !json {
            for line in MuseumText.story(exhibit) { Console.out(line) }
        }
        var live: MuseumLiveReport?
        if !noRun {
            if !json {
                Console.out("")
                Console.out("What happens on the port as it is (\(exhibit.unpatchedSide)):")
            }
            live = try await MuseumLiveRun.run(exhibit, root: root, scratchPath: scratchPath)
            if !json, let live {
                Console.out("  [\(live.mode)]")
                for line in live.lines { Console.out("  " + line) }
                Console.out(live.asExpected ? "  → as the exhibit says." : "  → NOT as the exhibit says.")
            }
        }
        var verified: (passed: Bool, seconds: Int)?
        if verify {
            if !json {
                Console.out("")
                Console.out("Verifying both sides (scripts/museum.sh verify \(number)):")
            }
            verified = try MuseumVerify.run(number: number, root: root, echo: !json)
        }
        if json {
            Console.out(try MuseumText.json(exhibit, patch: patch, live: live, verified: verified))
        } else {
            Console.out("")
            Console.out("The \(exhibit.kind == "fix" ? "fix" : "regression") (Museum/\(exhibit.id)/\(exhibit.patch)):")
            for line in patch.split(separator: "\n", omittingEmptySubsequences: false) { Console.out("  " + line) }
        }
        if let live, !live.asExpected {
            throw SDPortFailure(.loadFailed, "\(exhibit.id): the unpatched side did not behave as the exhibit says")
        }
        if let verified, !verified.passed {
            throw SDPortFailure(.loadFailed, "\(exhibit.id): scripts/museum.sh verify \(number) failed")
        }
    }
}
