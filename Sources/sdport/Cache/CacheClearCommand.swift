import ArgumentParser
import SDPort

/// `sdport cache clear`: `clearDisk` (removes the directory and creates it again).
struct CacheClearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear", abstract: "Delete every file in the cache (clearDisk).")

    @OptionGroup var cacheOptions: CacheDirectoryOptions

    func run() async throws {
        let cache = try CacheFactory.writableCache(for: cacheOptions)
        let before = cache.getDiskCount()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            cache.clearDisk { continuation.resume() }
        }
        Console.out("clearDisk: \(before) removed from \(cache.diskCachePath)")
    }
}
