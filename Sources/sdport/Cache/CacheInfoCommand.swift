import ArgumentParser
import Foundation
import SDPort

/// `sdport cache info`: the directory, the number of entries and their size (`getDiskCount`, `getSize`: 4.4.8
/// counts every entry its directory enumerator meets, sub-directories included), and
/// the cleanup settings (`maxCacheAge`, `maxCacheSize`).
struct CacheInfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "Print the cache directory, its entry count (getDiskCount) and total size.")

    @OptionGroup var cacheOptions: CacheDirectoryOptions

    @Flag(name: .long, help: "Print one JSON object instead of text.")
    var json = false

    func run() async throws {
        let cache = CacheFactory.cache(for: cacheOptions)
        let count = cache.getDiskCount()
        let size = cache.getSize()
        if json {
            Console.out(
                JSONLine.encode([
                    "path": .string(cache.diskCachePath), "files": .int(Int(count)), "bytes": .int(Int(size)),
                    "maxCacheAge": .double(cache.config.maxCacheAge),
                    "maxCacheSize": .int(Int(cache.config.maxCacheSize)),
                ]))
            return
        }
        Console.out("path:          \(cache.diskCachePath)")
        Console.out("entries:       \(count)")
        Console.out("size:          \(ByteCount.text(UInt64(size)))")
        Console.out(
            "maxCacheAge:   \(Int(cache.config.maxCacheAge)) s (\(Int(cache.config.maxCacheAge / 86_400)) days)")
        Console.out(
            "maxCacheSize:  \(cache.config.maxCacheSize == 0 ? "0 (no size limit)" : ByteCount.text(UInt64(cache.config.maxCacheSize)))"
        )
    }
}
