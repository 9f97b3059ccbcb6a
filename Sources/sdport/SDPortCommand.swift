import ArgumentParser
import Foundation
import SDPort

/// The `sdport` command line: the demo, single loads, cache maintenance and the FAQ.
@main
struct SDPortCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sdport",
        abstract: "SDWebImage 4.4 ported to Swift on Linux: load, cache and decode images.",
        version: SDPortVersion.string,
        subcommands: [DemoCommand.self]
    )
}
