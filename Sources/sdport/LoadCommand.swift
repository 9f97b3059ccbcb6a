import ArgumentParser
import Foundation

/// `sdport load <url-or-path>`: one load through `SDWebImageManager`.
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Load one image through the manager and say where it came from.")

    @Argument(help: "An http(s) URL, or the path of a local image file.")
    var source: String

    @Option(name: .customLong("option"), help: ArgumentHelp(
        "An SDWebImageOptions flag; repeat for more. One of: \(LoadOption.allCases.map(\.rawValue).joined(separator: ", ")).",
        valueName: "name"))
    var optionNames: [String] = []

    @OptionGroup var cacheOptions: CacheDirectoryOptions

    @Flag(name: .long, help: "Print one JSON object (origin, format, width, height, frames, cacheFile, url).")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Write the decoded image as PNG (an animated image as a contact sheet of its frames).", valueName: "file.png"))
    var output: String?

    @Flag(name: .long, help: "Print each step of the flow (SDWebImageTrace) as it happens.")
    var trace = false

    /// The parsed `--option` values (checked in `validate()`).
    var options: [LoadOption] { optionNames.compactMap(LoadOption.init(rawValue:)) }

    func validate() throws {
        for name in optionNames where LoadOption(rawValue: name) == nil {
            throw ValidationError("unknown --option '\(name)'; known: \(LoadOption.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() async throws {
        throw SDPortFailure(.loadFailed, "load needs the manager, which has not landed yet")
    }
}
