import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// MUS-13: the will-terminate cleanup is only queued, so it may never run. 4.4.8's observer of "will terminate"
/// calls `deleteOldFiles` (`SDImageCache.m:205-208`), which only queues the work on the io queue
/// (`SDImageCache.m:641-646`); the process can exit before it runs. The patch runs it synchronously, as 5.11.1.
final class MUS13_WillTerminateCleanupTests: XCTestCase {
    private var fixture: MUSCacheFixture!

    override func setUpWithError() throws { fixture = try MUSCacheFixture("mus13") }
    override func tearDown() {
        fixture.tearDown()
        fixture = nil
    }

    /// Stores one file and dates it eight days back (past the one-week default age); returns its path.
    private func storeExpiredFile() throws -> String {
        fixture.cache.storeImageData(toDisk: fixture.data, forKey: "old")
        let path = try XCTUnwrap(fixture.cache.defaultCachePath(forKey: "old"))
        let eightDaysAgo = Date().timeIntervalSince1970 - 8 * 86_400
        MUSCacheFixture.setTimes(path, access: eightDaysAgo, modification: eightDaysAgo)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        return path
    }

    /// Faithful side: posting the notification returns with the expired file still there; the cleanup runs only
    /// when the io queue gets to it.
    func test_MUS13_willTerminateOnlyQueuesTheCleanup() throws {
        try MuseumSide.requireUnpatched("MUS-13")
        let path = try storeExpiredFile()
        let gate = DispatchSemaphore(value: 0)
        // Bounded: a wrong side must fail, not hang.
        fixture.cache.ioQueue.async { _ = gate.wait(timeout: .now() + 10) }
        NotificationCenter.default.post(name: UIApplication.willTerminateNotification, object: nil)
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: path), "the process would exit now, file kept (4.4.8's bug)")
        gate.signal()
        fixture.cache.ioQueue.sync {}
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "the queued cleanup deletes it later")
    }

    /// Fixed side (5.11.1): the observer waits for the cleanup, so the file is gone when the post returns.
    func test_MUS13_fixed_willTerminateCleansBeforeReturning() throws {
        try MuseumSide.requirePatched("MUS-13")
        let path = try storeExpiredFile()
        let gate = DispatchSemaphore(value: 0)
        // Bounded: a wrong side must fail, not hang.
        fixture.cache.ioQueue.async { _ = gate.wait(timeout: .now() + 10) }
        DispatchQueue.global().async { gate.signal() }
        NotificationCenter.default.post(name: UIApplication.willTerminateNotification, object: nil)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }
}
