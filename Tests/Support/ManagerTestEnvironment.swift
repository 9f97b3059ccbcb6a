import Foundation
import SDPort
import SDPortTestServer

/// One manager test's world: a loopback server, a fresh cache in a temporary directory, a fresh downloader and
/// a manager over both. `tearDown()` cancels what runs, stops the server and removes the directory.
///
/// Used by the manager, view and flow tests (`MGR*`, `VIEW*`, `Flow*`, FAQ-05/06/10/17) of both test targets.
public final class ManagerTestEnvironment: @unchecked Sendable {
    public let directory: TemporaryDirectory
    public let server: SDPortTestServer
    public let cache: SDImageCache
    public let downloader: SDWebImageDownloader
    public let manager: SDWebImageManager

    public init(namespace: String = "mgr-test") throws {
        directory = try TemporaryDirectory(prefix: "sdport-mgr")
        server = SDPortTestServer()
        cache = SDImageCache(namespace: namespace, diskCacheDirectory: directory.path)
        // Its protocol cache in the temporary directory too: `SDWebImageDownloader()` would put it in the real
        // user cache folder.
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = URLCache(
            memoryCapacity: 1 << 20, diskCapacity: 8 << 20,
            diskPath: directory.url.appendingPathComponent("protocol-cache").path)
        downloader = SDWebImageDownloader(sessionConfiguration: configuration)
        manager = SDWebImageManager(cache: cache, downloader: downloader)
        try server.start()
    }

    /// Serves a fixture file's bytes at `path` and returns its URL.
    @discardableResult
    public func serveFixture(_ name: String, at path: String? = nil) throws -> URL {
        let routePath = path ?? "/" + name
        let data = try TestFixtures.data(name)
        let format = Data.sd_imageFormat(forImageData: data)
        server.route(routePath, .data(data, contentType: format.mimeType))
        return server.url(routePath)
    }

    /// Waits until the cache's io queue has done everything queued so far (disk writes included). The cache's
    /// io queue is serial, so an existence check queued now runs after them; its answer comes on
    /// `cache.completionQueue`, which a test waiting with XCTest or `waitUntil` keeps running.
    public func diskImageExists(forKey key: String?, timeout: TimeInterval = 10) -> Bool? {
        let answer = Recorder<Bool>()
        cache.diskImageExists(withKey: key) { answer.append($0) }
        guard waitUntil(timeout: timeout, { answer.count > 0 }) else { return nil }
        return answer.values.first
    }

    public func tearDown() {
        manager.cancelAll()
        downloader.invalidateSessionAndCancel(true)
        // Every cancelled task reports its end before the next test starts (none is still in flight at exit).
        _ = waitUntil { self.downloader.sessionTaskCount == 0 }
        server.stop()
        cache.clearMemory()
        // getSize runs synchronously on the cache's serial io queue, so disk writes queued before it are done
        // and cannot recreate the directory after it is removed.
        _ = cache.getSize()
        directory.remove()
    }
}
