import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// Proves FAQ-05 (the cache side): the card is `Docs/knowledge/faq/FAQ-05.json` (question, answer, citations; `sdport
/// faq 5` prints it).
///
/// Checks the raw values of `SDImageCacheType`; queries a cache in a temporary directory for a missing key, a key whose
/// file is on disk and a key held in memory, and checks the cache type each query answers.
final class FAQ05_CacheTypeTests: XCTestCase {
    /// Parity: FAQ-05 — the raw values.
    func test_FAQ05_rawValues() {
        XCTAssertEqual(SDImageCacheType.none.rawValue, 0)
        XCTAssertEqual(SDImageCacheType.disk.rawValue, 1)
        XCTAssertEqual(SDImageCacheType.memory.rawValue, 2)
    }

    /// Parity: FAQ-05 — the cache reports none for a miss, disk for a file it decoded, memory for a memory hit.
    func test_FAQ05_queryReportsNoneDiskMemory() throws {
        let directory = try TemporaryDirectory(prefix: "sdport-faq05")
        defer { directory.remove() }
        let cache = SDImageCache(namespace: "faq05", diskCacheDirectory: directory.path)
        let key = "http://example.com/baseline.jpg"
        func query() -> SDImageCacheType? {
            let answer = expectation(description: "answer")
            let type = Locked<SDImageCacheType?>(nil)
            cache.queryCacheOperation(forKey: key) { _, _, cacheType in
                type.value = cacheType
                answer.fulfill()
            }
            wait(for: [answer], timeout: 10)  // returns at once when a memory hit already answered
            return type.value
        }
        XCTAssertEqual(query(), SDImageCacheType.none)
        cache.storeImageData(toDisk: try TestFixtures.data("baseline.jpg"), forKey: key)
        XCTAssertEqual(query(), .disk)
        XCTAssertEqual(query(), .memory, "the disk hit filled memory")
    }
}
