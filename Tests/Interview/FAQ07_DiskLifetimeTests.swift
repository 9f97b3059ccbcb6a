import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// Proves FAQ-07: the card is `Docs/knowledge/faq/FAQ-07.json` (question, answer, citations; `sdport faq 7` prints it).
///
/// Reads `maxCacheAge`; dates one file 6 days back and one 8 days back in a temporary cache, then posts the terminate
/// notification, the background notification, or calls `deleteOldFiles`, and checks that only the older file goes each
/// time, and that a store does not clean anything.
final class FAQ07_DiskLifetimeTests: XCTestCase {
    /// Parity: FAQ-07 — one week by default.
    func test_FAQ07_maxCacheAgeIsOneWeek() {
        XCTAssertEqual(SDImageCacheConfig().maxCacheAge, 60 * 60 * 24 * 7)
        XCTAssertEqual(SDImageCacheConfig.defaultMaxCacheAge, 604_800)
    }

    /// Parity: FAQ-07 — a file 6 days old stays, one 8 days old goes, on terminate, on background, or on a call;
    /// nothing is cleaned on a write. (4.4.8 observes the two app notifications on iOS and tvOS only.)
    func test_FAQ07_cleanupOnTerminateBackgroundOrCall() throws {
        let directory = try TemporaryDirectory(prefix: "sdport-faq07")
        defer { directory.remove() }
        let cache = SDImageCache(namespace: "faq07", diskCacheDirectory: directory.path)
        let day: TimeInterval = 24 * 3600

        func age(_ key: String, days: Double) throws {
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -days * day)],
                ofItemAtPath: try XCTUnwrap(cache.defaultCachePath(forKey: key)))
        }
        for trigger in ["terminate", "background", "call"] {
            cache.storeImageData(toDisk: Data([1]), forKey: "six-days")
            cache.storeImageData(toDisk: Data([2]), forKey: "eight-days")
            try age("six-days", days: 6)
            try age("eight-days", days: 8)
            cache.storeImageData(toDisk: Data([3]), forKey: "a write")
            XCTAssertTrue(cache.diskImageDataExists(withKey: "eight-days"), "a write does not clean")

            switch trigger {
            case "terminate":
                NotificationCenter.default.post(name: UIApplication.willTerminateNotification, object: nil)
            case "background":
                NotificationCenter.default.post(name: UIApplication.didEnterBackgroundNotification, object: nil)
            default:
                let done = expectation(description: "cleaned")
                cache.deleteOldFiles { done.fulfill() }
                wait(for: [done], timeout: 10)
            }
            // Synchronous reads wait on the io queue behind the cleanup the trigger queued.
            XCTAssertFalse(cache.diskImageDataExists(withKey: "eight-days"), trigger)
            XCTAssertTrue(cache.diskImageDataExists(withKey: "six-days"), trigger)
        }
    }
}
