import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// The lifecycle notifications a host program posts (CACHE-13).
final class CACHE13_LifecycleTests: CACHETestCase {
    /// Parity: CACHE-13 — the memory warning empties the memory cache (an image nobody else keeps is gone;
    /// disk is untouched).
    func test_CACHE13_memoryWarningClearsMemory() {
        cache.config.shouldUseWeakMemoryCache = false
        storeData(Data([1]), forKey: "a")
        cache.store(CACHETestImages.opaque(width: 2, height: 2), forKey: "b", toDisk: false, completion: nil)
        XCTAssertEqual(cache.memCache.count, 2)
        NotificationCenter.default.post(name: UIApplication.didReceiveMemoryWarningNotification, object: nil)
        XCTAssertEqual(cache.memCache.count, 0)
        XCTAssertNil(cache.imageFromMemoryCache(forKey: "a"))
        XCTAssertNil(cache.imageFromMemoryCache(forKey: "b"))
        XCTAssertTrue(cache.diskImageDataExists(withKey: "a"))
    }

    /// Parity: CACHE-13 — with 4.4's weak memory cache on (the default), an image still used elsewhere survives
    /// the memory warning without a disk read; `clearMemory` removes it for good.
    func test_CACHE13_weakMemoryCacheKeepsImagesInUse() {
        let shown = CACHETestImages.opaque(width: 3, height: 3)
        cache.store(shown, forKey: "shown", toDisk: false, completion: nil)
        NotificationCenter.default.post(name: UIApplication.didReceiveMemoryWarningNotification, object: nil)
        XCTAssertTrue(cache.imageFromMemoryCache(forKey: "shown") === shown)
        cache.clearMemory()
        XCTAssertNil(cache.imageFromMemoryCache(forKey: "shown"))
        withExtendedLifetime(shown) {}
    }

    /// Parity: CACHE-13 — will-terminate and did-enter-background both run deleteOldFiles.
    func test_CACHE13_terminateAndBackgroundDeleteOldFiles() throws {
        let old = Date(timeIntervalSinceNow: -30 * 24 * 3600)
        for notification in [UIApplication.willTerminateNotification, UIApplication.didEnterBackgroundNotification] {
            storeData(Data([1]), forKey: "old")
            storeData(Data([2]), forKey: "fresh")
            try setDate(old, ofFileAt: try XCTUnwrap(cache.defaultCachePath(forKey: "old")))
            NotificationCenter.default.post(name: notification, object: nil)
            // The cleanup was queued on the io queue by the post; a synchronous read waits behind it.
            XCTAssertFalse(cache.diskImageDataExists(withKey: "old"), notification.rawValue)
            XCTAssertTrue(cache.diskImageDataExists(withKey: "fresh"), notification.rawValue)
        }
    }

    /// Parity: CACHE-13 — the notification names are UIKit's.
    func test_CACHE13_notificationNamesAreUIKits() {
        XCTAssertEqual(
            UIApplication.didReceiveMemoryWarningNotification.rawValue,
            "UIApplicationDidReceiveMemoryWarningNotification")
        XCTAssertEqual(UIApplication.willTerminateNotification.rawValue, "UIApplicationWillTerminateNotification")
        XCTAssertEqual(
            UIApplication.didEnterBackgroundNotification.rawValue, "UIApplicationDidEnterBackgroundNotification")
    }
}
