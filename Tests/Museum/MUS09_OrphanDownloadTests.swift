import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// MUS-09: a cancel between the cache answer and the download start leaves an orphan download. 4.4.8 checks
/// `isCancelled` when the cache answers, asks the downloader, and only then stores the cancel handle
/// (`SDWebImageManager.m:161-166`, `:199`, `:356-366`); a cancel in between finds no handle to call, and nobody calls it
/// later. Not fixed upstream; the port runs a handle set after the cancel at once, and the regress patch takes
/// that out.
final class MUS09_OrphanDownloadTests: XCTestCase {
    private var env: ManagerTestEnvironment!

    override func setUpWithError() throws { env = try ManagerTestEnvironment(namespace: "mus09") }
    override func tearDown() {
        env.tearDown()
        env = nil
    }

    /// Loads `/a.png` with a delegate that cancels every load at the moment the manager asks it; waits until the
    /// manager's continuation has returned. Returns the URL, the load's handle and its completion count.
    private func loadCancelledInTheGap() throws -> (
        URL, SDWebImageCombinedOperation, Locked<Int>, MUSCancellingDelegate
    ) {
        let url = try env.serveFixture("rgba.png", at: "/a.png")
        let afterAnswer = expectation(description: "continueLoad returned")
        let delegate = MUSCancellingDelegate { afterAnswer.fulfill() }
        env.manager.delegate = delegate
        let calls = Locked(0)
        let operation = env.manager.loadImage(with: url) { _, _, _, _, _, _ in calls.value += 1 }
        wait(for: [afterAnswer], timeout: 30)
        return (url, operation, calls, delegate)
    }

    /// Fixed side (the port): the handle stored after the cancel runs at once and cancels the download.
    func test_MUS09_cancelBeforeTheTokenIsStoredCancelsTheDownload() throws {
        try MuseumSide.requireUnpatched("MUS-09")
        let (url, operation, calls, delegate) = try loadCancelledInTheGap()
        XCTAssertTrue(operation.isCancelled)
        XCTAssertNil(env.downloader.runningOperation(for: url), "the late handle cancelled the only caller")
        XCTAssertNotEqual(operation.downloadToken?.downloadOperation?.isCancelled, false)
        drainMainQueue()
        XCTAssertEqual(calls.value, 0)
        _ = delegate
    }

    /// Faithful side (regressed to 4.4.8): the download runs to its end for nobody.
    func test_MUS09_regressed_cancelBeforeTheTokenIsStoredOrphansTheDownload() throws {
        try MuseumSide.requirePatched("MUS-09")
        let (url, operation, calls, delegate) = try loadCancelledInTheGap()
        XCTAssertTrue(operation.isCancelled)
        let running = env.downloader.runningOperation(for: url)
        XCTAssertNotNil(running, "the download goes on (4.4.8's bug)")
        XCTAssertEqual(running?.isCancelled, false)
        XCTAssertTrue(
            waitUntil { self.env.server.hits("/a.png") == 1 && self.env.downloader.runningOperation(for: url) == nil },
            "it downloads to the end")
        drainMainQueue()
        XCTAssertEqual(calls.value, 0, "for nobody: the cancelled load is never called")
        _ = delegate
    }
}
