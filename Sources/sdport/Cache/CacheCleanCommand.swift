import ArgumentParser
import SDPort

/// `sdport cache clean`: runs `deleteOldFiles` (files older than `maxCacheAge` go; then the size rule when a
/// `maxCacheSize` is set) and reports what it removed.
struct CacheCleanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clean", abstract: "Delete files older than maxCacheAge (deleteOldFiles).")

    @OptionGroup var cacheOptions: CacheDirectoryOptions

    func run() async throws {
        let cache = try CacheFactory.writableCache(for: cacheOptions)
        let before = cache.getDiskCount()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            cache.deleteOldFiles { continuation.resume() }
        }
        let after = cache.getDiskCount()
        Console.out("deleteOldFiles: \(before - min(before, after)) removed, \(after) left in \(cache.diskCachePath)")
    }
}
