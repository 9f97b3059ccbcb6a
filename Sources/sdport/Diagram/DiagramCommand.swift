import ArgumentParser
import Foundation

/// `sdport diagram`: generates the diagrams of `Docs/diagrams` from real runs (Mermaid in Markdown), or checks
/// that the committed ones still have the structure a fresh run gives (`--check`, what DiagramTests runs).
struct DiagramCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diagram",
        abstract:
            "Draw the flow's sequence diagrams, queue map, cache layout, operation states and cleanup passes from real runs.",
        discussion: "Names: \(DiagramGenerator.allNames.joined(separator: ", ")). Without --output or --check the "
            + "Markdown is printed. --check compares lanes, arrows and step names (not threads or times).")

    @Argument(help: "The diagrams to make (default with --all: every one).")
    var names: [String] = []

    @Flag(name: .long, help: "Make every diagram.")
    var all = false

    @Option(name: .long, help: ArgumentHelp("Write each diagram to DIR/<name>.md.", valueName: "DIR"))
    var output: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Compare the regenerated diagrams' structure with DIR/<name>.md; exit 6 if one differs.", valueName: "DIR"))
    var check: String?

    func validate() throws {
        if all == !names.isEmpty { throw ValidationError("give diagram names or --all (not both)") }
        for name in names where !DiagramGenerator.allNames.contains(name) {
            throw ValidationError(
                "unknown diagram '\(name)'; known: \(DiagramGenerator.allNames.joined(separator: ", "))")
        }
        if output != nil && check != nil { throw ValidationError("--output and --check exclude each other") }
    }

    func run() async throws {
        let wanted = Set(all ? DiagramGenerator.allNames : names)
        let files = try await DiagramGenerator.generate(wanted)
        if let output {
            let directory = URL(fileURLWithPath: output)
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                for file in files {
                    try Data(file.markdown.utf8).write(
                        to: directory.appendingPathComponent(file.fileName), options: .atomic)
                    Console.out("wrote \(directory.appendingPathComponent(file.fileName).path)")
                }
            } catch {
                throw SDPortFailure(
                    .outputUnwritable, "cannot write the diagrams to \(output): \(error.localizedDescription)")
            }
        } else if let check {
            var failures: [String] = []
            for file in files {
                let path = URL(fileURLWithPath: check).appendingPathComponent(file.fileName).path
                guard
                    let committed = FileManager.default.contents(atPath: path).map({
                        String(decoding: $0, as: UTF8.self)
                    })
                else {
                    failures.append("\(path): missing (run `sdport diagram --all --output \(check)`)")
                    continue
                }
                if let difference = DiagramStructure(markdown: committed).difference(
                    from: DiagramStructure(markdown: file.markdown))
                {
                    failures.append("\(path): \(difference)")
                } else {
                    Console.out("same structure: \(path)")
                }
            }
            if !failures.isEmpty {
                for failure in failures { Console.out("differs: \(failure)") }
                throw SDPortFailure(
                    .checkFailed,
                    "\(failures.count) diagram(s) differ from a fresh run; "
                        + "regenerate with `sdport diagram --all --output \(check)` if the change is intended")
            }
        } else {
            for file in files { Console.out(file.markdown) }
        }
    }
}
