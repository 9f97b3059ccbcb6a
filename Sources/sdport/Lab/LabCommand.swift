import ArgumentParser
import Foundation

/// `sdport lab [SCENARIO]`: one scenario through the 4.4.8 flow and the 5.x flow of the port's manager, side by
/// side, printing what differs (see `LabRunner`, `LabComparison`). Without a scenario, lists them.
struct LabCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lab",
        abstract: "Run one scenario through the 4.4.8 and the 5.x flow side by side and show what differs.",
        discussion: """
            Each flow runs on its own loopback server with a fresh cache in a temporary directory. Printed: every \
            completion call (caller, image, error domain and code, cache type, finished), the error, whether the \
            URL went on the failed-URL list, what the cache holds (memory, disk) under which key, and how many \
            requests reached the server; `=` marks what is the same, `≠` what differs, `~` calls that are the same \
            per caller but came in another order. A line about 4.0–4.2 \
            follows when the myths page has one for the scenario.

            Scenarios: \(LabScenario.allCases.map(\.rawValue).joined(separator: ", ")).
            """)

    @Argument(help: "The scenario to run; none lists them.")
    var scenario: String?

    @Flag(help: "Print one JSON object (the list, or the comparison with both outcomes) instead of text.")
    var json = false

    func run() async throws {
        guard let name = scenario else {
            if json {
                let list = LabScenario.allCases.map {
                    "{\"scenario\":\(Self.quoted($0.rawValue)),\"summary\":\(Self.quoted($0.summary))}"
                }
                Console.out("{\"scenarios\":[" + list.joined(separator: ",") + "]}")
            } else {
                for scenario in LabScenario.allCases {
                    Console.out(scenario.rawValue.padding(toLength: 17, withPad: " ", startingAt: 0) + scenario.summary)
                }
                Console.out("Run `sdport lab SCENARIO` to run one through the 4.4.8 and the 5.x flow.")
            }
            return
        }
        guard let scenario = LabScenario(rawValue: name.lowercased()) else {
            throw SDPortFailure(
                .usage,
                "there is no scenario \(name); pick one of "
                    + LabScenario.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let comparison = try await LabRunner.compare(scenario, myths: try Knowledge.load().myths)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            Console.out(String(decoding: try encoder.encode(comparison), as: UTF8.self))
        } else {
            for line in comparison.lines { Console.out(line) }
        }
    }

    private static func quoted(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
