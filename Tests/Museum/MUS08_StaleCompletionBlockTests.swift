import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// MUS-08: a stale completion block removes a newer operation, duplicating downloads. 4.4.8's completion block
/// removes the URL's entry whatever operation it holds (`SDWebImageDownloader.m:302-310`); after cancel and ask
/// again, the cancelled operation's late block unlists the newer one, and the next request starts a second
/// download. Still so in 5.21.5; the port checks identity, and the regress patch takes the check out.
final class MUS08_StaleCompletionBlockTests: XCTestCase {
    private var env: DownloaderTestEnvironment!

    override func setUpWithError() throws {
        env = try DownloaderTestEnvironment(prefix: "mus08") { $0.route("/s.png", .stall) }
        env.downloader.setOperationClass(MUSCompletionSignalOperation.self)
    }
    override func tearDown() {
        env.tearDown()
        env = nil
    }

    /// Operation 1 is asked for and cancelled while the queue is suspended; operation 2 is asked for; the queue
    /// resumes and operation 1's completion block runs. Returns the URL and operation 2.
    private func cancelThenAskAgain() throws -> (URL, Operation?) {
        let url = env.server.url("/s.png")
        env.downloader.setSuspended(true)  // the gate: operation 1 cannot start, so it is cancelled while queued
        let token1 = env.downloader.downloadImage(with: url, options: [], progress: nil, completed: nil)
        let operation1 = try XCTUnwrap(token1?.downloadOperation as? MUSCompletionSignalOperation)
        env.downloader.cancel(token1)
        let token2 = env.downloader.downloadImage(with: url, options: [], progress: nil, completed: nil)
        let operation2 = token2?.downloadOperation
        XCTAssertFalse(operation2 === operation1)
        env.downloader.setSuspended(false)
        XCTAssertEqual(operation1.completionBlockRan.wait(timeout: .now() + 30), .success)
        return (url, operation2)
    }

    /// Fixed side (the port): operation 1's block leaves operation 2 listed, and a third caller joins it.
    func test_MUS08_newerOperationSurvivesTheStaleCompletionBlock() throws {
        try MuseumSide.requireUnpatched("MUS-08")
        let (url, operation2) = try cancelThenAskAgain()
        XCTAssertTrue(env.downloader.runningOperation(for: url) === operation2)
        let token3 = env.downloader.downloadImage(with: url, options: [], progress: nil, completed: nil)
        XCTAssertTrue(token3?.downloadOperation === operation2, "the third caller joins the running download")
        XCTAssertTrue(waitUntil { self.env.server.hits("/s.png") == 1 })
    }

    /// Faithful side (regressed to 4.4.8): operation 1's block unlists operation 2, and the next caller starts a
    /// second download of the same URL.
    func test_MUS08_regressed_staleCompletionBlockRemovesTheNewerOperation() throws {
        try MuseumSide.requirePatched("MUS-08")
        let (url, operation2) = try cancelThenAskAgain()
        XCTAssertNil(env.downloader.runningOperation(for: url), "unlisted although it is running (4.4.8's bug)")
        XCTAssertFalse(operation2?.isFinished ?? true)
        let token3 = env.downloader.downloadImage(with: url, options: [], progress: nil, completed: nil)
        XCTAssertFalse(token3?.downloadOperation === operation2, "a second operation for the same URL")
        XCTAssertTrue(waitUntil { self.env.server.hits("/s.png") == 2 }, "two downloads of one image")
    }
}
