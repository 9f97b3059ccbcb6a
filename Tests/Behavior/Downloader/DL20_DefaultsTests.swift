import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// The downloader's User-Agent and protocol cache, and the memory warning's object (DL-20): 4.4.8's where Linux
/// allows it, otherwise the difference chapter 08 lists.
final class DL20_DefaultsTests: XCTestCase {
    /// Parity: DL-20 — the User-Agent a server receives has the documented form, "<process>/<SDPort version>
    /// (Linux; <OS version>)", ASCII only: 4.4.8's macOS form, with the process name and the library's version
    /// where 4.4.8 reads the app bundle (a deliberate difference, chapter 08).
    func test_DL20_userAgentHasTheDocumentedForm() throws {
        let env = try DownloaderTestEnvironment(prefix: "dl20-agent") { server in
            server.route("/a.jpg", .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg"))
        }
        defer { env.tearDown() }
        XCTAssertNil(downloadAndWait(env.downloader, env.server.url("/a.jpg")).final?.error)
        let agent = try XCTUnwrap(env.server.requests("/a.jpg").first?.header("User-Agent"))
        let prefix = "\(ProcessInfo.processInfo.processName)/\(SDPortVersion.string) (Linux; "
        XCTAssertTrue(agent.hasPrefix(prefix), agent)
        XCTAssertTrue(agent.hasSuffix(")"), agent)
        XCTAssertGreaterThan(agent.count, prefix.count + 1, "the OS version is there: \(agent)")
        XCTAssertTrue(agent.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 }, agent)
        XCTAssertEqual(env.downloader.value(forHTTPHeaderField: "User-Agent"), agent)
    }

    /// Parity: DL-20 — `init()` uses `URLCache.shared`, as 4.4.8's `init` takes the default session configuration,
    /// whose cache is the shared one; a configuration with a cache of its own keeps it.
    func test_DL20_initUsesTheSharedURLCache() throws {
        let downloader = SDWebImageDownloader()
        defer { downloader.invalidateSessionAndCancel(true) }
        XCTAssertTrue(downloader.urlCache === URLCache.shared)
        XCTAssertTrue(downloader.sessionConfiguration.urlCache === URLCache.shared)
    }

    /// Parity: DL-20 — the memory warning names the application as its object, as UIKit posts it: an observer that
    /// listens for `UIApplication.shared` only hears it.
    func test_DL20_memoryWarningNamesTheApplication() throws {
        let directory = try TemporaryDirectory(prefix: "dl20-memory")
        defer { directory.remove() }
        let statm = directory.url.appendingPathComponent("statm")
        try Data("1000 100 0 0 0 0 0\n".utf8).write(to: statm)
        let page = UInt64(sysconf(Int32(_SC_PAGESIZE)))
        var configuration = SDMemoryPressureMonitor.Configuration(cgroupDirectory: nil, limitBytes: 200 * page)
        configuration.statmPath = statm.path
        let monitor = SDMemoryPressureMonitor(configuration: configuration)
        drainMainQueue()  // warnings other monitors handed to the main queue are posted before this test listens
        let heard = Locked(0)
        let observer = NotificationCenter.default.addObserver(
            forName: UIApplication.didReceiveMemoryWarningNotification,
            object: UIApplication.shared, queue: nil
        ) { note in
            XCTAssertTrue(note.object as AnyObject? === UIApplication.shared)
            heard.update { $0 += 1 }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        XCTAssertFalse(monitor.check())
        try Data("1000 190 0 0 0 0 0\n".utf8).write(to: statm)
        XCTAssertTrue(monitor.check(), "190 of 200 pages: a warning")
        XCTAssertTrue(waitUntil { heard.value == 1 }, "heard by an observer of the application object")
    }
}
