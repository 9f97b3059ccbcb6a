import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// Proves FAQ-01: the card is `Docs/knowledge/faq/FAQ-01.json` (question, answer, citations; `sdport faq 1` prints it).
///
/// Runs `sdport cache path` in a child process with `HOME` and `XDG_CACHE_HOME` set by the test and compares the
/// printed `diskCachePath` with the caches folder, "default" and the full namespace (writing nothing there); makes a
/// cache in a temporary directory and checks where its files land; adds a read-only path and checks that a read finds a
/// file there while a store never writes into it.
final class FAQ01_DiskDirectoryTests: XCTestCase {
    /// Parity: FAQ-01 — the default path, observed in a child process (`sdport cache path` prints
    /// `SDImageCache.shared.diskCachePath`) with both variables set by the test: `$XDG_CACHE_HOME` when it is an
    /// absolute path, else `$HOME/.cache`; then "default" and the full namespace. Nothing is written there.
    func test_FAQ01_defaultPathIsCachesDefaultFullNamespace() throws {
        let directory = try TemporaryDirectory(prefix: "sdport-faq01-env")
        defer { directory.remove() }
        let home = directory.path + "/home"
        let xdg = directory.path + "/xdg"
        XCTAssertEqual(
            try sharedCachePath(home: home, xdgCacheHome: xdg),
            xdg + "/default/com.hackemist.SDWebImageCache.default")
        XCTAssertEqual(
            try sharedCachePath(home: home, xdgCacheHome: "relative/cache"),
            home + "/.cache/default/com.hackemist.SDWebImageCache.default", "a relative XDG_CACHE_HOME is ignored")
        XCTAssertEqual(
            try sharedCachePath(home: home, xdgCacheHome: nil),
            home + "/.cache/default/com.hackemist.SDWebImageCache.default")
        XCTAssertEqual(
            SDImageCache(namespace: "avatars").diskCachePath,
            SDImageCache.userCachesDirectory + "/avatars/com.hackemist.SDWebImageCache.avatars")
        XCTAssertEqual(SDImageCache.shared.makeDiskCachePath("default"), SDImageCache.userCachesDirectory + "/default")
    }

    /// `sdport cache path` run with HOME and XDG_CACHE_HOME (nil: unset) as given, with a 60 s deadline.
    private func sharedCachePath(home: String, xdgCacheHome: String?) throws -> String {
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home
        environment["XDG_CACHE_HOME"] = xdgCacheHome
        let process = try ChildProcess(
            executable: ChildProcess.productExecutable("sdport"), arguments: ["cache", "path"],
            environment: environment, stderr: .null)
        XCTAssertEqual(try process.wait(deadline: 60).code, 0)
        return process.text(1).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Parity: FAQ-01 — a given directory gets the full namespace appended; files land there.
    func test_FAQ01_customDirectoryGetsFullNamespace() throws {
        let directory = try TemporaryDirectory(prefix: "sdport-faq01")
        defer { directory.remove() }
        let cache = SDImageCache(namespace: "default", diskCacheDirectory: directory.path)
        XCTAssertEqual(cache.diskCachePath, directory.path + "/com.hackemist.SDWebImageCache.default")
        cache.storeImageData(toDisk: Data([1, 2, 3]), forKey: "http://example.com/a.png")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: cache.diskCachePath),
            [SDImageCache.cachedFileName(forKey: "http://example.com/a.png")])
    }

    /// Parity: FAQ-01 — read-only paths are searched after the cache's own directory and never written.
    func test_FAQ01_readOnlyPathsAreSearchedNeverWritten() throws {
        let directory = try TemporaryDirectory(prefix: "sdport-faq01")
        defer { directory.remove() }
        let shipped = directory.url.appendingPathComponent("shipped").path
        try FileManager.default.createDirectory(atPath: shipped, withIntermediateDirectories: true)
        let key = "http://example.com/logo.png"
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: shipped + "/" + SDImageCache.cachedFileName(forKey: key), contents: Data("shipped".utf8)))

        let cache = SDImageCache(namespace: "default", diskCacheDirectory: directory.path)
        XCTAssertNil(cache.diskImageData(forKey: key))
        cache.addReadOnlyCachePath(shipped)
        XCTAssertEqual(cache.diskImageData(forKey: key), Data("shipped".utf8))
        cache.storeImageData(toDisk: Data("new".utf8), forKey: "http://example.com/other.png")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: shipped).count, 1, "nothing written to a read-only path"
        )
    }
}
