import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// MUS-17: access-date expiry never sees reads. With `diskCacheExpireType = AccessDate` 4.4.8 trusts the file
/// system's access date (`SDImageCache.m:650-654`), but its own reads never set it (`SDImageCache.m:442-447`), and
/// file systems mounted noatime or relatime do not record every read. The patch sets the date on a disk hit, as
/// 5.20.0.
final class MUS17_AccessDateTests: XCTestCase {
    private var fixture: MUSCacheFixture!

    override func setUpWithError() throws { fixture = try MUSCacheFixture("mus17") }
    override func tearDown() {
        fixture.tearDown()
        fixture = nil
    }

    private var now: TimeInterval { Date().timeIntervalSince1970 }

    /// Stores the file; returns its path.
    private func storedFile() throws -> String {
        fixture.cache.storeImageData(toDisk: fixture.data, forKey: "k")
        return try XCTUnwrap(fixture.cache.defaultCachePath(forKey: "k"))
    }

    /// Skips on a strictatime mount, where the kernel itself records every read: a control file with a future
    /// access date, read with plain open/read, keeps it everywhere else (relatime never moves a date that is newer
    /// than the modification and change times).
    private func requireKernelLeavesFutureAccessDates() throws {
        let control = fixture.directory.url.appendingPathComponent("control").path
        _ = FileManager.default.createFile(atPath: control, contents: Data([1, 2, 3]))
        let future = now + 365 * 86_400
        MUSCacheFixture.setTimes(control, access: future, modification: now - 8 * 86_400)
        _ = FileManager.default.contents(atPath: control)
        if MUSCacheFixture.accessTime(control) != Int(future) {
            throw XCTSkip(
                "MUS-17: this mount records every read itself (strictatime), so it cannot tell who set the date")
        }
    }

    /// Faithful side: a read through the cache leaves a future access date alone, and an eight-day-old file read
    /// a moment ago is deleted by the access-date cleanup.
    func test_MUS17_aDiskHitDoesNotRecordTheRead() throws {
        try MuseumSide.requireUnpatched("MUS-17")
        try requireKernelLeavesFutureAccessDates()
        let path = try storedFile()
        let future = now + 365 * 86_400
        MUSCacheFixture.setTimes(path, access: future, modification: now - 8 * 86_400)
        XCTAssertNotNil(fixture.cache.diskImageData(forKey: "k"))
        XCTAssertEqual(MUSCacheFixture.accessTime(path), Int(future), "the cache recorded nothing (4.4.8's bug)")

        // A file system that does not record reads: the date stays eight days old after the read.
        let old = now - 8 * 86_400
        MUSCacheFixture.setTimes(path, access: old, modification: old)
        XCTAssertNotNil(fixture.cache.diskImageData(forKey: "k"))
        if MUSCacheFixture.accessTime(path) != Int(old) {
            MUSCacheFixture.setTimes(path, access: old, modification: old)  // relatime's once-a-day update, undone
        }
        fixture.cache.config.diskCacheExpireType = .accessDate
        let cleaned = expectation(description: "cleanup")
        fixture.cache.deleteOldFiles { cleaned.fulfill() }
        wait(for: [cleaned], timeout: 10)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "the image read a moment ago is deleted")
    }

    /// Fixed side (5.20.0): a read through the cache moves a future access date back to now (the kernel never
    /// moves it backwards), and the file read a moment ago survives the access-date cleanup.
    func test_MUS17_fixed_aDiskHitRefreshesTheAccessDate() throws {
        try MuseumSide.requirePatched("MUS-17")
        try requireKernelLeavesFutureAccessDates()
        let path = try storedFile()
        MUSCacheFixture.setTimes(path, access: now + 365 * 86_400, modification: now - 8 * 86_400)
        let before = Int(now)
        XCTAssertNotNil(fixture.cache.diskImageData(forKey: "k"))
        let accessed = try XCTUnwrap(MUSCacheFixture.accessTime(path))
        XCTAssertTrue((before - 1)...(Int(now) + 1) ~= accessed, "set to the time of the read")

        let old = now - 8 * 86_400
        MUSCacheFixture.setTimes(path, access: old, modification: old)
        XCTAssertNotNil(fixture.cache.diskImageData(forKey: "k"))
        fixture.cache.config.diskCacheExpireType = .accessDate
        let cleaned = expectation(description: "cleanup")
        fixture.cache.deleteOldFiles { cleaned.fulfill() }
        wait(for: [cleaned], timeout: 10)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), "the file read a moment ago is kept")
    }
}
