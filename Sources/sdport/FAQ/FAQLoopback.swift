import Foundation
import SDPort
import SDPortTestServer

/// A loopback server, and a downloader (with its own protocol cache), image cache and manager in a temporary
/// directory, for the FAQ answers that are best proven by real requests. Everything is torn down by `close()`.
final class FAQLoopback: Sendable {
    let server: SDPortTestServer
    let downloader: SDWebImageDownloader
    let cache: SDImageCache
    let manager: SDWebImageManager
    let directory: TemporaryCacheDirectory

    init() throws {
        directory = try TemporaryCacheDirectory.make(prefix: "sdport-faq")
        server = SDPortTestServer()
        do {
            try server.start()
        } catch {
            directory.remove()
            throw SDPortFailure(.loadFailed, "cannot start the loopback server: \(error)")
        }
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = URLCache(
            memoryCapacity: 1 << 20, diskCapacity: 4 << 20,
            diskPath: directory.url.appendingPathComponent("http").path)
        downloader = SDWebImageDownloader(sessionConfiguration: configuration)
        cache = SDImageCache(namespace: "faq", diskCacheDirectory: directory.path)
        manager = SDWebImageManager(cache: cache, downloader: downloader)
    }

    /// Loads `path` from the server through the manager; returns the origin, or the error's code.
    func load(_ path: String, options: SDWebImageOptions = []) async -> Result<SDImageCacheType, NSError> {
        let outcome: Result<SDImageCacheType, NSError>
        do {
            let result = try await manager.loadImage(with: server.url(path), options: options)
            // The manager stores on the io queue after completing; wait for that write.
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                cache.ioQueue.async { continuation.resume() }
            }
            outcome = .success(result.cacheType)
        } catch {
            outcome = .failure(error as NSError)
        }
        // 4.4.8 blacklists a URL whose download failed (unless the delegate's
        // `imageManager:shouldBlockFailedURL:withError:` declines or, without that method, the error is one it
        // exempts, a cancel among them) and leaves runningOperations in the block that called the completion that
        // resumed this call, after it (a main-queue block with the default `SDWebImageDownloaderOperation`; here
        // the completionQueue's): let that block end before the next load asks.
        let queue = manager.completionQueue
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
        return outcome
    }

    /// Downloads `url` and waits for the final completion; returns the error, if any.
    @discardableResult
    func download(_ url: URL, options: SDWebImageDownloaderOptions = []) async -> Error? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Error?, Never>) in
            let once = LockedValue(false)
            downloader.downloadImage(with: url, options: options, progress: nil) { _, _, error, finished in
                guard finished || error != nil else { return }
                let first = once.withValue { resumed -> Bool in
                    defer { resumed = true }
                    return !resumed
                }
                if first { continuation.resume(returning: error) }
            }
        }
    }

    func close() {
        downloader.cancelAllDownloads()
        downloader.invalidateSessionAndCancel(true)
        server.stop()
        directory.remove()
    }

    /// Runs `body` with a fresh loopback set-up and closes it afterwards.
    static func with<T: Sendable>(_ body: (FAQLoopback) async throws -> T) async throws -> T {
        let loopback = try FAQLoopback()
        defer { loopback.close() }
        return try await body(loopback)
    }
}
