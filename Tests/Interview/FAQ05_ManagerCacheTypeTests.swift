import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// Proves FAQ-05 (the manager side): the card is `Docs/knowledge/faq/FAQ-05.json` (question, answer, citations; `sdport
/// faq 5` prints it).
///
/// Checks the raw values, then loads one URL three times through a manager on a loopback server and a temporary cache —
/// the first load downloads, the second hits memory, the third (after `clearMemory`) reads the disk — and checks the
/// cache type each completion receives.
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
