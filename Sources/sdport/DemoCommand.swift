import ArgumentParser
import Foundation

/// `sdport demo`: the articles' sequence, live, over a loopback server serving `Fixtures/`.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Serve Fixtures/ on loopback and walk images through download, memory, disk and cleanup.")

    @Option(name: .customLong("fixtures"), help: ArgumentHelp("The directory of images to serve.", valueName: "dir"))
    var fixturesDirectory = "Fixtures"

    @OptionGroup var cacheOptions: CacheDirectoryOptions

    func run() async throws {
        throw SDPortFailure(.demoSetupFailed, "the demo needs the manager and the test server, which have not landed yet")
    }
}
