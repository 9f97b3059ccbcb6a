import ArgumentParser
import Foundation
import SDPort
import SDPortTestServer

/// `sdport demo`: the articles' sequence, live, over a loopback server serving `Fixtures/`.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Serve Fixtures/ on loopback and walk images through download, memory, disk and cleanup.",
        discussion: "Uses a temporary cache directory (removed at the end) unless --cache-dir is given.")

    @Option(
        name: .customLong("fixtures"),
        help: ArgumentHelp(
            "The directory of images to serve (default: ./Fixtures, else the package's Fixtures/).", valueName: "dir"))
    var fixturesDirectory: String?

    @OptionGroup var cacheOptions: CacheDirectoryOptions

    @OptionGroup var coderOptions: CoderOptions

    func run() async throws {
        let fixtures = try DemoFixtures.load(explicit: fixturesDirectory)
        coderOptions.apply()
        var temporary: TemporaryCacheDirectory?
        let cacheDirectory: String
        if let chosen = cacheOptions.cacheDirectory {
            cacheDirectory = chosen
        } else {
            let made = try TemporaryCacheDirectory.make(prefix: "sdport-demo")
            temporary = made
            cacheDirectory = made.path
        }
        defer { temporary?.remove() }
        let session = try LoadSession.make(cacheDirectory: cacheDirectory)

        let server = SDPortTestServer()
        do {
            try server.start()
        } catch {
            throw SDPortFailure(.demoSetupFailed, "cannot start the loopback server: \(error)")
        }
        defer { server.stop() }
        server.serveDirectory(fixtures.directory, under: "/")

        Console.out("sdport \(SDPortVersion.string) demo: SDWebImage \(SDPortVersion.portedSDWebImageVersion) on Linux")
        Console.out(
            "Serving \(fixtures.good.count + fixtures.bad.count) images from \(fixtures.directory.path) at \(server.baseURL.absoluteString)"
        )
        Console.out(
            "Coders: \(CoderOptions.registeredNames) (the last is asked first)"
                + (coderOptions.addsGIFCoder
                    ? "" : "; 4.4.8's defaults with SD_WEBP: a GIF is its first frame (UIKit), --gif-coder animates"))
        Console.out(
            "Cache: \(session.cache.diskCachePath)\(temporary == nil ? "" : " (temporary, removed at the end)")")
        for skipped in fixtures.skipped {
            Console.out("Skipped \(skipped.name): \(skipped.reason)")
        }
        let runner = await DemoRunner(fixtures: fixtures, session: session, server: server)
        try await runner.run()
    }
}
