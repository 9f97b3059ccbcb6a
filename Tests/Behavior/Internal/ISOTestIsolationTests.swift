import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// Test isolation: no test touches a cache outside a temporary directory.
///
/// The tests post the terminate / enter-background notifications, which reach every `SDImageCache` of the
/// process, `SDImageCache.shared` included; its disk path follows `$XDG_CACHE_HOME` (else `~/.cache`), and
/// `deleteOldFiles` there would delete week-old files of whoever runs the suite. `Tests/Isolation/isolation.c`
/// moves HOME and the XDG folders into a fresh temporary directory before `main`, so the shared cache, the
/// downloader's URLCache and the cookie store all live there (see `TestIsolation`).
final class ISOTestIsolationTests: XCTestCase {
    /// The shared cache lives in the private home, and the lifecycle notifications reach it (its cleanup runs,
    /// in the private home). Run by itself here, and inside the child process of the sentinel test below.
    func test_ISO_sharedCacheLivesInThePrivateHomeAndHearsLifecycleNotifications() throws {
        let home = try XCTUnwrap(TestIsolation.home, "the isolation constructor ran")
        XCTAssertEqual(ProcessInfo.processInfo.environment["HOME"], home)
        XCTAssertTrue(SDImageCache.userCachesDirectory.hasPrefix(home + "/"), SDImageCache.userCachesDirectory)
        let shared = SDImageCache.shared
        XCTAssertTrue(shared.diskCachePath.hasPrefix(home + "/"), shared.diskCachePath)
        XCTAssertTrue(SDWebImageDownloader.shared.sessionConfiguration.urlCache != nil)

        let key = "sdport-isolation-old-file"
        shared.storeImageData(toDisk: Data([1]), forKey: key)
        let path = try XCTUnwrap(shared.defaultCachePath(forKey: key))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -30 * 24 * 3600)],
            ofItemAtPath: path)
        NotificationCenter.default.post(name: UIApplication.willTerminateNotification, object: nil)
        NotificationCenter.default.post(name: UIApplication.didEnterBackgroundNotification, object: nil)
        // The cleanups were queued on the shared cache's io queue; a synchronous read waits behind them.
        XCTAssertFalse(shared.diskImageDataExists(withKey: key), "the notifications reached the shared cache")
    }

    /// A sentinel 30-day-old file in a fake home's cache directory (where `SDImageCache.shared` would keep its
    /// files) survives a test process that posts every lifecycle notification the suite posts: the test binary
    /// runs again with HOME pointing at the fake home and no XDG variables, limited to the tests that post the
    /// notifications or use the shared cache, the downloader's URLCache and the cookie store. Afterwards the
    /// sentinel is still there with its date, and nothing else was written into the fake home.
    func test_ISO_sentinelInFakeHomeSurvivesTheSuitesLifecycleNotifications() throws {
        let fakeHome = try TemporaryDirectory(prefix: "sdport-fake-home")
        defer { fakeHome.remove() }
        let sharedCacheDirectory = fakeHome.url
            .appendingPathComponent(".cache/default/com.hackemist.SDWebImageCache.default", isDirectory: true)
        try FileManager.default.createDirectory(at: sharedCacheDirectory, withIntermediateDirectories: true)
        let sentinel = sharedCacheDirectory.appendingPathComponent(
            SDImageCache.cachedFileName(forKey: "http://example.com/sentinel.png"))
        let sentinelDate = Date(timeIntervalSinceNow: -30 * 24 * 3600)
        XCTAssertTrue(FileManager.default.createFile(atPath: sentinel.path, contents: Data("sentinel".utf8)))
        try FileManager.default.setAttributes([.modificationDate: sentinelDate], ofItemAtPath: sentinel.path)

        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0])
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: testBinary.path), testBinary.path)
        // Every test that posts willTerminate / didEnterBackground, uses the shared cache or downloader, or
        // starts `sdport` (which uses the shared cache when given no --cache-dir).
        let tests = [
            "BehaviorTests.ISOTestIsolationTests/test_ISO_sharedCacheLivesInThePrivateHomeAndHearsLifecycleNotifications",
            "BehaviorTests.CACHE13_LifecycleTests",
            "InterviewTests.FAQ07_DiskLifetimeTests",
            "InterviewTests.FAQ01_DiskDirectoryTests",
            "InterviewTests.FAQ02_DownloaderDefaultsTests",
        ].joined(separator: ",")
        var environment = ProcessInfo.processInfo.environment
        for name in ["XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "SDPORT_TEST_HOME"] {
            environment[name] = nil
        }
        environment["HOME"] = fakeHome.path
        let process = try ChildProcess(executable: testBinary, arguments: [tests], environment: environment)
        let exit = try process.wait(deadline: 300)
        let text = process.text(1) + process.text(2)
        XCTAssertEqual(exit.reason, .exit, String(text.suffix(4000)))
        XCTAssertEqual(exit.code, 0, String(text.suffix(4000)))
        XCTAssertTrue(
            text.contains("test_ISO_sharedCacheLivesInThePrivateHomeAndHearsLifecycleNotifications"),
            "the child ran the shared-cache test: \(text.suffix(2000))")

        XCTAssertTrue(FileManager.default.fileExists(atPath: sentinel.path), "the sentinel survived")
        let attributes = try FileManager.default.attributesOfItem(atPath: sentinel.path)
        let date = try XCTUnwrap(attributes[.modificationDate] as? Date)
        XCTAssertEqual(date.timeIntervalSince1970, sentinelDate.timeIntervalSince1970, accuracy: 1)
        var written: [String] = []
        if let walker = FileManager.default.enumerator(atPath: fakeHome.path) {
            for case let relative as String in walker { written.append(relative) }
        }
        XCTAssertEqual(
            written.sorted(),
            [
                ".cache", ".cache/default", ".cache/default/com.hackemist.SDWebImageCache.default",
                ".cache/default/com.hackemist.SDWebImageCache.default/" + sentinel.lastPathComponent,
            ],
            "nothing but the sentinel is in the fake home")
    }
}
