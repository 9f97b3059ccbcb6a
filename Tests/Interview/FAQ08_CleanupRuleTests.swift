import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// Proves FAQ-08: the card is `Docs/knowledge/faq/FAQ-08.json` (question, answer, citations; `sdport faq 8` prints it).
///
/// Writes files of known sizes and dates into a temporary cache and runs `deleteOldFiles`: without a size limit (only
/// the expired files go), over a limit (the oldest go until the rest is below half of it, measured as blocks on disk),
/// and under a limit after reading the oldest file (nothing more goes).
final class FAQ08_CleanupRuleTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var cache: SDImageCache!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "sdport-faq08")
        cache = SDImageCache(namespace: "faq08", diskCacheDirectory: directory.path)
    }

    override func tearDown() {
        cache = nil
        directory.remove()
    }

    /// Writes a file of `size` bytes for `key`, dated `minutesAgo` in the past; returns its size on disk.
    @discardableResult
    private func file(_ key: String, size: Int, minutesAgo: Double) throws -> UInt64 {
        cache.storeImageData(toDisk: Data(repeating: 7, count: size), forKey: key)
        let path = try XCTUnwrap(cache.defaultCachePath(forKey: key))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -minutesAgo * 60)], ofItemAtPath: path)
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0)
        return UInt64(info.st_blocks) * 512
    }

    private func clean() {
        let done = expectation(description: "cleaned")
        cache.deleteOldFiles { done.fulfill() }
        wait(for: [done], timeout: 10)
    }

    private func remaining() -> Set<String> {
        Set(["a", "b", "c", "d", "e", "old"].filter { cache.diskImageDataExists(withKey: $0) })
    }

    /// Parity: FAQ-08 — pass 1 only (no size limit): exactly the expired files go, whatever the size.
    func test_FAQ08_passOneDeletesExpiredFilesOnly() throws {
        try file("old", size: 10, minutesAgo: 8 * 24 * 60)
        try file("a", size: 200_000, minutesAgo: 5)
        clean()
        XCTAssertEqual(remaining(), ["a"])
    }

    /// Parity: FAQ-08 — pass 2: over the limit, oldest first, until below half the limit. Five equal files,
    /// limit = 4 files' worth: pass 2 runs and deletes until below 2 files' worth, so the newest one stays.
    func test_FAQ08_passTwoDeletesOldestUntilBelowHalf() throws {
        var unit: UInt64 = 0
        for (index, key) in ["a", "b", "c", "d", "e"].enumerated() {
            unit = try file(key, size: 20_000, minutesAgo: Double(50 - index * 10))  // "a" oldest, "e" newest
        }
        try file("old", size: 20_000, minutesAgo: 8 * 24 * 60)
        cache.config.maxCacheSize = UInt(unit * 4)
        clean()
        XCTAssertEqual(remaining(), ["e"], "expired first, then a, b, c, d oldest first until < 2 files' worth")
    }

    /// Parity: FAQ-08 — under the limit, pass 2 does not run; and use does not matter: reading the oldest file
    /// does not save it (no use-frequency rule; the default `diskCacheExpireType` dates files by modification).
    func test_FAQ08_noPassTwoUnderLimitAndNoUseRule() throws {
        var unit: UInt64 = 0
        for (index, key) in ["a", "b", "c"].enumerated() {
            unit = try file(key, size: 20_000, minutesAgo: Double(30 - index * 10))
        }
        cache.config.maxCacheSize = UInt(unit * 3)
        clean()
        XCTAssertEqual(remaining(), ["a", "b", "c"], "3 files' worth is not above a 3-file limit")

        for _ in 0..<5 { _ = cache.diskImageData(forKey: "a") }
        cache.config.maxCacheSize = UInt(unit * 5 / 2)
        clean()
        XCTAssertEqual(
            remaining(), ["c"], "a was read often but is the oldest, so it goes first; then b, to get below 1.25 files")
    }
}
