import ArgumentParser
import SDPort

/// `sdport cache path`: the cache directory (`diskCachePath`), for scripts.
struct CachePathCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "path", abstract: "Print the cache directory.")

    @OptionGroup var cacheOptions: CacheDirectoryOptions

    func run() async throws {
        Console.out(CacheFactory.cache(for: cacheOptions).diskCachePath)
    }
}
