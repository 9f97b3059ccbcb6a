import Foundation
import SDPort
import SDPortTestServer

/// One downloader test's world, the twin of `ManagerTestEnvironment`: a loopback server (routes added by the
/// test, then started), and a fresh downloader whose HTTP protocol cache lives in a temporary directory.
/// `tearDown()` invalidates the session, stops the server and removes the directory.
///
/// Used by the downloader and operation tests (`DL*`, `OP*`) and FAQ-09.
public final class DownloaderTestEnvironment: @unchecked Sendable {  // every property is set once, in init
    public let directory: TemporaryDirectory
    public let server: SDPortTestServer
    public let downloader: SDWebImageDownloader

    /// `routes` adds the test's routes before the server starts.
    public init(prefix: String, routes: (SDPortTestServer) -> Void = { _ in }) throws {
        server = SDPortTestServer()
        routes(server)
        try server.start()
        directory = try TemporaryDirectory(prefix: prefix)
        downloader = SDWebImageDownloader.withProtocolCache(in: directory)
    }

    public func tearDown() {
        downloader.invalidateSessionAndCancel(true)
        // Every cancelled task reports its end before the next test starts (none is still in flight at exit).
        _ = waitUntil { self.downloader.sessionTaskCount == 0 }
        server.stop()
        directory.remove()
    }
}
