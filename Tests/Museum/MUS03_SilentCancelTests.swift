import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// MUS-03: a cancel below the manager calls nobody back. 4.4.8's `cancelInternal` finishes the operation and
/// `reset` throws the callbacks away (`SDWebImageDownloaderOperation.m:213-231, 239-242`); `cancelAllDownloads`
/// is only the queue's `cancelAllOperations` (`SDWebImageDownloader.m:347-349`), and the manager leaves
/// `runningOperations` only from a finished callback (`SDWebImageManager.m:281-283`). The patch brings 5.1.0's
/// contract: every caller is answered once with `SDWebImageErrorCancelled` (2002).
final class MUS03_SilentCancelTests: XCTestCase {
    private var env: ManagerTestEnvironment!

    override func setUpWithError() throws {
        env = try ManagerTestEnvironment(namespace: "mus03")
        env.server.route("/stall.png", .stall)
    }
    override func tearDown() {
        env.tearDown()
        env = nil
    }

    /// Starts a load of the stalled URL and waits until its request is on the wire.
    private func startStalledLoad(_ calls: Recorder<CompletionCall>) -> (URL, SDWebImageCombinedOperation) {
        let url = env.server.url("/stall.png")
        let operation = env.manager.loadImage(with: url) { image, _, error, cacheType, finished, _ in
            calls.append(
                CompletionCall(
                    image: image, data: nil, error: error, cacheType: cacheType, finished: finished, url: nil))
        }
        XCTAssertTrue(waitUntil { self.env.server.hits("/stall.png") == 1 })
        return (url, operation)
    }

    /// Faithful side: after `cancelAllDownloads` the manager's caller hears nothing and the load stays in the
    /// manager's running operations for good.
    func test_MUS03_cancelAllDownloadsCallsNobodyBack() throws {
        try MuseumSide.requireUnpatched("MUS-03")
        let calls = Recorder<CompletionCall>()
        let (url, operation) = startStalledLoad(calls)
        env.downloader.cancelAllDownloads()
        XCTAssertTrue(waitUntil { self.env.downloader.runningOperation(for: url) == nil }, "the operation finished")
        drainMainQueue()
        drainMainQueue()
        XCTAssertEqual(calls.count, 0, "no completion at all (4.4.8's bug)")
        XCTAssertTrue(env.manager.isRunning, "the load never leaves runningOperations")
        XCTAssertEqual(env.manager.runningOperations.count, 1)
        XCTAssertFalse(operation.isCancelled, "the caller's handle was never cancelled")
    }

    /// Faithful side, the prefetcher: it counts completions, so a cancel below it leaves it unfinished.
    func test_MUS03_prefetcherNeverFinishesAfterCancelAll() throws {
        try MuseumSide.requireUnpatched("MUS-03")
        let url = env.server.url("/stall.png")
        let prefetcher = SDWebImagePrefetcher(imageManager: env.manager)
        let progress = Locked(0)
        let finished = Locked(0)
        prefetcher.prefetchURLs(
            [url], progress: { _, _ in progress.value += 1 }, completed: { _, _ in finished.value += 1 })
        XCTAssertTrue(waitUntil { self.env.server.hits("/stall.png") == 1 })
        env.downloader.cancelAllDownloads()
        XCTAssertTrue(waitUntil { self.env.downloader.runningOperation(for: url) == nil })
        drainMainQueue()
        drainMainQueue()
        XCTAssertEqual(finished.value, 0, "the prefetcher's completion never runs")
        XCTAssertEqual(progress.value, 0)
    }

    /// Fixed side (5.1.0): one completion, finished, with error 2002; the load leaves the manager and the URL is
    /// not blacklisted.
    func test_MUS03_fixed_cancelAllDownloadsAnswers2002Once() throws {
        try MuseumSide.requirePatched("MUS-03")
        let calls = Recorder<CompletionCall>()
        let (url, _) = startStalledLoad(calls)
        env.downloader.cancelAllDownloads()
        XCTAssertTrue(waitUntil { calls.count == 1 }, "the caller is answered")
        drainMainQueue()
        drainMainQueue()
        XCTAssertEqual(calls.count, 1, "exactly once")
        let call = try XCTUnwrap(calls.values.first)
        XCTAssertTrue(call.finished)
        XCTAssertNil(call.image)
        XCTAssertEqual((call.error as NSError?)?.domain, SDWebImageErrorDomain)
        XCTAssertEqual((call.error as NSError?)?.code, 2002)
        XCTAssertFalse(env.manager.isRunning)
        XCTAssertFalse(env.manager.failedURLs.contains(url), "a cancel is not a failure of the URL")
    }

    /// Fixed side: two callers share one download; cancelling the first token answers it with 2002 and the
    /// second still gets the image.
    func test_MUS03_fixed_cancellingOneJoinedCallerAnswersItAlone() throws {
        try MuseumSide.requirePatched("MUS-03")
        let url = try env.serveFixture("rgba.png", at: "/a.png")
        env.downloader.setSuspended(true)  // the gate: the operation cannot start until both callers are in
        let first = Recorder<CompletionCall>()
        let second = Recorder<CompletionCall>()
        let token1 = env.downloader.downloadImage(with: url, options: [], progress: nil) { image, _, error, finished in
            first.append(
                CompletionCall(image: image, data: nil, error: error, cacheType: .none, finished: finished, url: nil))
        }
        let token2 = env.downloader.downloadImage(with: url, options: [], progress: nil) { image, _, error, finished in
            second.append(
                CompletionCall(image: image, data: nil, error: error, cacheType: .none, finished: finished, url: nil))
        }
        XCTAssertTrue(token1?.downloadOperation === token2?.downloadOperation, "the second caller joined")
        env.downloader.cancel(token1)
        env.downloader.setSuspended(false)
        XCTAssertTrue(waitUntil { first.count == 1 && second.count == 1 })
        drainMainQueue()
        XCTAssertEqual((first.values.first?.error as NSError?)?.code, 2002)
        XCTAssertNotNil(second.values.first?.image)
        XCTAssertEqual(first.count + second.count, 2)
    }
}
