import ArgumentParser

/// `sdport cache info|path|clean|clear`: the disk cache's statistics, its directory, the age cleanup
/// (`deleteOldFiles`) and clearing it.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect or clean the disk cache.",
        subcommands: [CacheInfoCommand.self, CachePathCommand.self, CacheCleanCommand.self, CacheClearCommand.self],
        defaultSubcommand: CacheInfoCommand.self
    )
}
