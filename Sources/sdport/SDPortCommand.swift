import ArgumentParser
import Foundation
import SDPort

/// The `sdport` command line: the demo, single loads, cache maintenance, the FAQ, its drills, quiz and lab.
///
/// Threading: `sdport` has an async entry point. On Linux, Swift's async `main` drains the main dispatch queue
/// (it ends in `dispatchMain()`), so the manager's completions run on the main queue exactly as they do in an app
/// (MGR-10), and the command awaits them through continuations. No run loop is needed and nothing blocks a
/// thread waiting for another. Every way out ends the process with a status and one stderr line: an error that
/// leaves `run()` is caught here, and a step that never calls back is ended by `CommandWatchdog`.
@main
struct SDPortCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sdport",
        abstract: "SDWebImage 4.4 ported to Swift on Linux: load, cache and decode images.",
        discussion: """
            Start with `sdport demo` (it serves Fixtures/ over a loopback server and walks one image through \
            download, memory cache, disk cache and cleanup). `sdport faq` answers the 17 interview questions \
            with values read from the running code; `sdport quiz` asks them back (spaced repetition) and \
            `sdport lab` runs one scenario through the 4.4.8 and the 5.x flow side by side.

            \(SDPortExitCode.helpSection)
            """,
        version: SDPortVersion.string,
        subcommands: [
            DemoCommand.self, LoadCommand.self, CacheCommand.self, FAQCommand.self, DrillCommand.self,
            QuizCommand.self, LabCommand.self, DiagramCommand.self, MuseumCommand.self,
        ]
    )

    /// Parses, runs, and turns every error into one stderr line and a documented exit code.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try await asyncParseAsRoot(arguments)
            // A person answers the quiz, and a drill builds a scratch copy: neither has a bound. Every other
            // command ends, with one line and a status, if a step inside it never completes.
            if !(command is QuizCommand || command is DrillCommand) {
                CommandWatchdog.arm(command: type(of: command).configuration.commandName ?? "sdport")
            }
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let failure as SDPortFailure {
            Console.err("sdport: \(failure.message)")
            Foundation.exit(failure.code.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success || error is ExitCode {
                // --help, --version, or a command that chose its exit code: ArgumentParser prints and exits.
                exit(withError: error)
            }
            // A usage error: ArgumentParser's message, flattened to one line, plus where to find help.
            let text = message(for: error)
                .split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
                .joined(separator: " ")
            Console.err("sdport: \(text) (see 'sdport help')")
            Foundation.exit(SDPortExitCode.usage.rawValue)
        }
    }
}
