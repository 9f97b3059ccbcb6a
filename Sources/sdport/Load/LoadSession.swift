import Foundation
import SDPort

/// The cache, downloader and manager one command works with.
///
/// With `--cache-dir DIR` (or a temporary directory for the demo) everything the load writes stays under DIR:
/// the image cache in DIR/com.hackemist.SDWebImageCache.default and the downloader's protocol cache in
/// DIR/com.hackemist.SDWebImageDownloader. Without it, the shared cache and downloader are used, as an app would.
struct LoadSession: Sendable {
    let cache: SDImageCache
    let downloader: SDWebImageDownloader
    let manager: SDWebImageManager

    /// A session whose caches live under `directory`, or the shared one for nil.
    static func make(cacheDirectory directory: String?) throws -> LoadSession {
        let options = CacheDirectoryOptions(cacheDirectory: directory)
        let cache = try CacheFactory.writableCache(for: options)
        guard let directory = options.cacheDirectory else {
            return LoadSession(cache: cache, downloader: .shared, manager: .shared)
        }
        let configuration = URLSessionConfiguration.default
        let protocolCachePath = URL(fileURLWithPath: directory).standardizedFileURL
            .appendingPathComponent("com.hackemist.SDWebImageDownloader").path
        configuration.urlCache = URLCache(memoryCapacity: 4 << 20, diskCapacity: 20 << 20, diskPath: protocolCachePath)
        let downloader = SDWebImageDownloader(sessionConfiguration: configuration)
        return LoadSession(
            cache: cache, downloader: downloader,
            manager: SDWebImageManager(cache: cache, downloader: downloader))
    }

    /// Waits until every disk write queued so far has finished (the manager stores asynchronously on the cache's
    /// io queue, after calling the completion).
    func flushDiskWrites() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            cache.ioQueue.async { continuation.resume() }
        }
    }

    /// The cache file of `key`, if it is on disk.
    func cacheFile(forKey key: String?) -> String? {
        guard let key, let path = cache.defaultCachePath(forKey: key),
            FileManager.default.fileExists(atPath: path)
        else { return nil }
        return path
    }
}
