import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// FAQ-05 — How do you know where an image came from?
///
/// Answer: the completion gets an `SDImageCacheType` (`SDImageCache.h`, 4.4.8): `SDImageCacheTypeNone` = 0 means
/// it was downloaded (the cache had nothing), `SDImageCacheTypeDisk` = 1 that it was read from the disk cache,
/// `SDImageCacheTypeMemory` = 2 that it was in the memory cache. The cache side: `queryCacheOperation` answers
/// each of the three.
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
