import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// `SDWebImagePrefetcher` (`SDWebImagePrefetcher.m`, 4.4.8) over a real manager, cache and loopback server.
final class MGRPrefetcherTests: XCTestCase {
    private var env: ManagerTestEnvironment!

    override func setUpWithError() throws {
        env = try ManagerTestEnvironment()
    }

    override func tearDown() {
        env.tearDown()
        env = nil
    }

    /// Records a prefetcher delegate's calls.
    private final class Delegate: SDWebImagePrefetcherDelegate, @unchecked Sendable {
        let prefetched = Recorder<(URL?, Int, Int)>()
        let finished = Recorder<(Int, Int)>()
        func imagePrefetcher(
            _ imagePrefetcher: SDWebImagePrefetcher, didPrefetchURL imageURL: URL?,
            finishedCount: Int, totalCount: Int
        ) {
            prefetched.append((imageURL, finishedCount, totalCount))
        }
        func imagePrefetcher(
            _ imagePrefetcher: SDWebImagePrefetcher, didFinishWithTotalCount totalCount: Int,
            skippedCount: Int
        ) {
            finished.append((totalCount, skippedCount))
        }
    }

    /// Parity: MGR-14 — every URL is loaded into the cache, a few at a time; progress counts up to the total;
    /// the completion gets the finished and skipped (no image) counts; the delegate hears each URL and the end.
    func test_MGR14_prefetchLoadsListWithProgressAndCounts() throws {
        let data = try TestFixtures.data("rgba.png")
        env.server.route("/p.png", SDPortTestRoute.data(data, contentType: "image/png").delay(0.02))
        env.server.route("/missing.png", .status(404))
        let urls =
            (0..<6).map { env.server.url("/p.png?n=\($0)") } + [
                env.server.url("/missing.png"),
                env.server.url("/missing.png?2"),
            ]
        let prefetcher = SDWebImagePrefetcher(imageManager: env.manager)
        XCTAssertEqual(prefetcher.options, .lowPriority)
        XCTAssertEqual(prefetcher.maxConcurrentDownloads, 3)
        prefetcher.maxConcurrentDownloads = 2
        let delegate = Delegate()
        prefetcher.delegate = delegate
        let progress = Recorder<(Int, Int)>()
        let completion = Recorder<(Int, Int)>()
        prefetcher.prefetchURLs(
            urls, progress: { progress.append(($0, $1)) }, completed: { completion.append(($0, $1)) })

        XCTAssertTrue(waitUntil { completion.count == 1 })
        XCTAssertEqual(completion.values.first?.0, 8)
        XCTAssertEqual(completion.values.first?.1, 2, "the two 404s are skipped")
        XCTAssertEqual(progress.values.map(\.0), Array(1...8))
        XCTAssertTrue(progress.values.allSatisfy { $0.1 == 8 })
        XCTAssertEqual(delegate.prefetched.count, 8)
        XCTAssertEqual(Set(delegate.prefetched.values.compactMap(\.0)), Set(urls))
        XCTAssertEqual(delegate.finished.values.first?.0, 6, "total minus skipped")
        XCTAssertEqual(delegate.finished.values.first?.1, 2)
        XCTAssertLessThanOrEqual(env.server.maxConcurrentRequests, 2, "never more than maxConcurrentDownloads")
        for url in urls.prefix(6) {
            XCTAssertNotNil(env.cache.imageFromMemoryCache(forKey: url.absoluteString), "\(url) is cached")
        }
        drainMainQueue()
        XCTAssertEqual(completion.count, 1, "the completion runs once")
    }

    /// Parity: MGR-14 — the first loop reads `maxConcurrentDownloads` as 4.4.8's unsigned loop bound
    /// (`SDWebImagePrefetcher.m:127-130`): -1 (the queue's default) starts every URL at once; 0 starts none (and, as
    /// in 4.4.8, the list never completes: the downloader's queue, set to 0 too, runs nothing).
    func test_MGR14_firstLoopWithMinusOneAndZeroConcurrentDownloads() throws {
        let data = try TestFixtures.data("rgba.png")
        env.server.route("/q.png", SDPortTestRoute.data(data, contentType: "image/png"))
        let urls = (0..<4).map { env.server.url("/q.png?n=\($0)") }
        let prefetcher = SDWebImagePrefetcher(imageManager: env.manager)

        prefetcher.maxConcurrentDownloads = 0
        prefetcher.prefetchURLs(
            urls, progress: nil, completed: { _, _ in XCTFail("0 concurrent downloads never complete") })
        XCTAssertEqual(prefetcher.requestedCount, 0, "0: nothing started")
        prefetcher.cancelPrefetching()

        prefetcher.maxConcurrentDownloads = -1
        env.downloader.setSuspended(true)
        let completion = Recorder<(Int, Int)>()
        prefetcher.prefetchURLs(urls, progress: nil, completed: { completion.append(($0, $1)) })
        XCTAssertEqual(prefetcher.requestedCount, 4, "-1: every URL started at once")
        env.downloader.setSuspended(false)
        XCTAssertTrue(waitUntil { completion.count == 1 })
        XCTAssertEqual(completion.values.first?.0, 4)
        XCTAssertEqual(env.server.hits("/q.png"), 4)
    }

    /// Parity: MGR-15 — `init(imageManager:)` sets `maxConcurrentDownloads = 3`, and that is the manager's
    /// downloader's own setting: a prefetcher made on a manager changes the downloader every load of that manager
    /// (for `SDWebImagePrefetcher.shared`, the shared downloader) uses. 5.x keeps a separate prefetch count.
    func test_MGR15_prefetcherSetsItsDownloadersConcurrencyToThree() {
        XCTAssertEqual(env.downloader.maxConcurrentDownloads, 6, "the downloader's default")
        let prefetcher = SDWebImagePrefetcher(imageManager: env.manager)
        XCTAssertEqual(env.downloader.maxConcurrentDownloads, 3, "making the prefetcher changed the downloader")
        prefetcher.maxConcurrentDownloads = 5
        XCTAssertEqual(env.downloader.maxConcurrentDownloads, 5, "the property passes through")
        let other = SDWebImageManager(cache: env.cache, downloader: env.downloader)
        XCTAssertEqual(other.imageDownloader.maxConcurrentDownloads, 5, "every manager on that downloader sees it")
    }

    /// Parity: MGR-15 — `requestedCount` grows as each load starts: `maxConcurrentDownloads` at once, then one per
    /// finished load, ending at the list's length.
    func test_MGR15_requestedCountGrowsAsLoadsStart() {
        env.server.route("/hold.png", .stall)
        let urls = (0..<5).map { env.server.url("/hold.png?n=\($0)") }
        let prefetcher = SDWebImagePrefetcher(imageManager: env.manager)
        prefetcher.maxConcurrentDownloads = 2
        XCTAssertEqual(prefetcher.requestedCount, 0)
        prefetcher.prefetchURLs(urls)
        XCTAssertEqual(prefetcher.requestedCount, 2, "two loads started, the other three wait for a slot")
        XCTAssertTrue(waitUntil { self.env.server.hits("/hold.png") == 2 }, "two requests reached the server")
        prefetcher.cancelPrefetching()
        XCTAssertEqual(prefetcher.requestedCount, 0, "cancelling resets the count")
    }

    /// Parity: MGR-14 — an empty or nil list completes at once with (0, 0).
    func test_MGR14_emptyListCompletesAtOnce() {
        let prefetcher = SDWebImagePrefetcher(imageManager: env.manager)
        let completion = Recorder<(Int, Int)>()
        prefetcher.prefetchURLs([], progress: nil) { completion.append(($0, $1)) }
        prefetcher.prefetchURLs(nil, progress: nil) { completion.append(($0, $1)) }
        XCTAssertEqual(completion.values.map(\.0), [0, 0])
        XCTAssertEqual(completion.values.map(\.1), [0, 0])
    }

    /// Parity: MGR-14 — `cancelPrefetching` cancels the running loads; the completion is never called.
    func test_MGR14_cancelPrefetchingStopsEverything() {
        env.server.route("/stall.png", .stall)
        let prefetcher = SDWebImagePrefetcher(imageManager: env.manager)
        let completion = Recorder<(Int, Int)>()
        let urls = (0..<5).map { env.server.url("/stall.png?n=\($0)") }
        prefetcher.prefetchURLs(urls, progress: nil) { completion.append(($0, $1)) }
        XCTAssertTrue(waitUntil { self.env.server.hits("/stall.png") == 3 }, "three at a time by default")
        prefetcher.cancelPrefetching()
        XCTAssertFalse(env.manager.isRunning)
        XCTAssertTrue(waitUntil { self.env.downloader.runningURLCount == 0 })
        drainMainQueue()
        XCTAssertEqual(completion.count, 0)
        XCTAssertEqual(env.server.hits("/stall.png"), 3, "the rest of the list is not started")
    }

    /// Parity: MGR-14 — a new prefetch replaces the running one: only the new list completes.
    func test_MGR14_newPrefetchReplacesRunningOne() throws {
        env.server.route("/stall.png", .stall)
        let url = try env.serveFixture("rgba.png")
        let prefetcher = SDWebImagePrefetcher(imageManager: env.manager)
        let first = Recorder<(Int, Int)>()
        let second = Recorder<(Int, Int)>()
        prefetcher.prefetchURLs([env.server.url("/stall.png")], progress: nil) { first.append(($0, $1)) }
        XCTAssertTrue(waitUntil { self.env.server.hits("/stall.png") == 1 })
        prefetcher.prefetchURLs([url], progress: nil) { second.append(($0, $1)) }
        XCTAssertTrue(waitUntil { second.count == 1 })
        XCTAssertEqual(second.values.first?.0, 1)
        XCTAssertEqual(second.values.first?.1, 0)
        drainMainQueue()
        XCTAssertEqual(first.count, 0)
    }

    /// Parity: MGR-14 — `maxConcurrentDownloads` is the downloader's, passed through as in the original.
    func test_MGR14_maxConcurrentDownloadsIsTheDownloaders() {
        let prefetcher = SDWebImagePrefetcher(imageManager: env.manager)
        XCTAssertEqual(prefetcher.maxConcurrentDownloads, env.downloader.maxConcurrentDownloads)
        prefetcher.maxConcurrentDownloads = 2
        XCTAssertEqual(env.downloader.maxConcurrentDownloads, 2)
        // A prefetcher made with `init()` (as `shared` is) sits on a new manager over the shared downloader, so
        // making one sets that downloader to 3 (MGR-15), whenever it happens. Put the process-wide default back for
        // the tests that check it (FAQ-02).
        let sharedDownloader = SDWebImageDownloader.shared
        let before = sharedDownloader.maxConcurrentDownloads
        defer { sharedDownloader.maxConcurrentDownloads = before }
        sharedDownloader.maxConcurrentDownloads = 6
        let fresh = SDWebImagePrefetcher()
        XCTAssertTrue(fresh.manager.imageDownloader === sharedDownloader)
        XCTAssertEqual(sharedDownloader.maxConcurrentDownloads, 3, "MGR-15: the shared downloader now runs 3 at a time")
        XCTAssertTrue(
            SDWebImagePrefetcher.shared.manager !== SDWebImageManager.shared,
            "the shared prefetcher has a manager of its own")
        XCTAssertTrue(SDWebImagePrefetcher.shared.manager.imageCache === SDImageCache.shared)
        XCTAssertTrue(SDWebImagePrefetcher.shared.manager.imageDownloader === sharedDownloader)
    }
}
