import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// FAQ-05 — How does a completion know where its image came from?
///
/// Answer: the manager passes an `SDImageCacheType` (`SDImageCache.h`, 4.4.8) to every completion:
/// `SDImageCacheTypeNone` (0) when the image was just downloaded, `SDImageCacheTypeDisk` (1) when the disk cache
/// had it, `SDImageCacheTypeMemory` (2) when the memory cache had it. `SDWebImageManager.m`
/// `loadImageWithURL:options:progress:completed:` passes the cache query's type for a hit and None after a
/// download. Port: `SDImageCacheType`, delivered by `SDWebImageManager.loadImage(with:options:progress:completed:)`.
final class FAQ05_ManagerCacheTypeTests: XCTestCase {
    /// Parity: FAQ-05 — the three values keep the original's raw values.
    func test_FAQ05_rawValuesAreTheOriginals() {
        XCTAssertEqual(SDImageCacheType.none.rawValue, 0)
        XCTAssertEqual(SDImageCacheType.disk.rawValue, 1)
        XCTAssertEqual(SDImageCacheType.memory.rawValue, 2)
    }

    /// Parity: FAQ-05 — the same URL through the manager: downloaded (none), then memory, then, after the memory
    /// cache is emptied, disk.
    func test_FAQ05_managerReportsNoneThenMemoryThenDisk() throws {
        let env = try ManagerTestEnvironment()
        defer { env.tearDown() }
        let url = try env.serveFixture("rgba.png")

        XCTAssertEqual(env.load(url).calls.last?.cacheType, SDImageCacheType.none)
        XCTAssertEqual(env.diskImageExists(forKey: url.absoluteString), true)
        XCTAssertEqual(env.load(url).calls.last?.cacheType, .memory)
        env.cache.clearMemory()
        XCTAssertEqual(env.load(url).calls.last?.cacheType, .disk)
        XCTAssertEqual(env.server.hits("/rgba.png"), 1, "only the first load went to the network")
    }
}
