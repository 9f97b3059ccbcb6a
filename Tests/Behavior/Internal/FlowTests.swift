import Foundation
import SDPort
import SDPortCacheWorkload
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// The whole flow the articles draw — view → manager → cache query → download → decode → store → completion →
/// set image — on real parts: a loopback server, a cache in a temporary directory, libcurl, the codecs.
final class FlowTests: XCTestCase {
    private var env: ManagerTestEnvironment!

    override func setUpWithError() throws {
        env = try ManagerTestEnvironment()
    }

    override func tearDown() {
        env.tearDown()
        env = nil
    }

    private var context: SDWebImageViewContext { [SDWebImageExternalCustomManagerKey: env.manager] }

    /// Collects the trace events reported for one key.
    private final class StepRecorder: @unchecked Sendable {
        let events = Recorder<SDWebImageTraceEvent>()
        private var token: SDWebImageTrace.Token?
        init(key: String) {
            token = SDWebImageTrace.addObserver { [events] event in
                if event.key == key { events.append(event) }
            }
        }
        var steps: [SDWebImageFlowStep] { events.values.map(\.step) }
        func stop() { if let token { SDWebImageTrace.removeObserver(token) } }
    }

    /// Loads `url` into a fresh image view and waits for the completion and the image.
    @MainActor
    private func setImage(_ url: URL, on imageView: UIImageView = UIImageView()) -> (UIImage?, SDImageCacheType?) {
        let result = Recorder<(UIImage?, SDImageCacheType)>()
        imageView.sd_setImage(with: url, context: context) { image, _, cacheType, _ in result.append((image, cacheType))
        }
        waitUntil { result.count > 0 }
        return (result.values.first?.0, result.values.first?.1)
    }

    // MARK: The ten steps

    /// Parity: FAQ-05, VIEW-01 — a cold view load reports the ten steps of the flow, in order, once each.
    @MainActor
    func test_FLOW_coldLoadReportsTenStepsInOrder() {
        let url = env.serveOrFail("baseline.jpg")
        let recorder = StepRecorder(key: url.absoluteString)
        defer { recorder.stop() }
        let (image, cacheType) = setImage(url)
        XCTAssertNotNil(image)
        XCTAssertEqual(cacheType, SDImageCacheType.none)
        XCTAssertTrue(waitUntil { recorder.steps.contains(.viewDisplay) })
        XCTAssertEqual(
            recorder.steps, SDWebImageFlowStep.allCases,
            recorder.events.values.map { "\($0.step): \($0.detail)" }.joined(separator: "\n"))
    }

    /// Parity: FAQ-05 — a memory hit stops after the memory query; a disk hit after the disk query.
    @MainActor
    func test_FLOW_cacheHitsSkipTheDownloadSteps() {
        let url = env.serveOrFail("baseline.jpg")
        XCTAssertNotNil(setImage(url).0)
        XCTAssertEqual(env.diskImageExists(forKey: url.absoluteString), true)

        let memory = StepRecorder(key: url.absoluteString)
        XCTAssertEqual(setImage(url).1, .memory)
        XCTAssertTrue(waitUntil { memory.steps.contains(.viewDisplay) })
        memory.stop()
        XCTAssertEqual(memory.steps, [.viewSetImage, .managerLoad, .memoryQuery, .managerCompletion, .viewDisplay])

        env.cache.clearMemory()
        let disk = StepRecorder(key: url.absoluteString)
        XCTAssertEqual(setImage(url).1, .disk)
        XCTAssertTrue(waitUntil { disk.steps.contains(.viewDisplay) })
        disk.stop()
        XCTAssertEqual(
            disk.steps, [.viewSetImage, .managerLoad, .memoryQuery, .diskQuery, .managerCompletion, .viewDisplay])
    }

    // MARK: Download, memory, disk

    /// Parity: MGR-07, FAQ-05 — a first load downloads (cache type none) and leaves the file at the MD5 path
    /// (the key's MD5 in hex plus its extension), with the downloaded bytes.
    func test_MGR07_firstLoadDownloadsAndWritesFileAtMD5Path() throws {
        let fixed = "https://images.example/first-load.png"
        env.manager.cacheKeyFilter = { _ in fixed }
        let url = try env.serveFixture("rgba.png")
        let calls = env.load(url).calls
        XCTAssertEqual(calls.last?.cacheType, SDImageCacheType.none)
        XCTAssertNotNil(calls.last?.image)
        XCTAssertEqual(env.server.hits("/rgba.png"), 1)
        XCTAssertEqual(env.diskImageExists(forKey: fixed), true)
        // md5("https://images.example/first-load.png"), computed outside the port.
        let path = (env.cache.diskCachePath as NSString).appendingPathComponent("dd70e8fb4888c4cd69a421b8a34467c5.png")
        XCTAssertEqual(FileManager.default.contents(atPath: path), try TestFixtures.data("rgba.png"))
    }

    /// Parity: MGR-09, FAQ-05 — the second load comes from memory, and after `clearMemory` from disk, without a
    /// request; the disk hit fills memory again.
    func test_MGR09_secondLoadFromMemoryThenFromDisk() throws {
        let url = try env.serveFixture("baseline.jpg")
        XCTAssertEqual(env.load(url).calls.last?.cacheType, SDImageCacheType.none)
        XCTAssertEqual(env.diskImageExists(forKey: url.absoluteString), true)
        XCTAssertEqual(env.load(url).calls.last?.cacheType, .memory)
        env.cache.clearMemory()
        let fromDisk = env.load(url).calls.last
        XCTAssertEqual(fromDisk?.cacheType, .disk)
        XCTAssertEqual(fromDisk?.data, try TestFixtures.data("baseline.jpg"))
        XCTAssertEqual(fromDisk?.image?.pixelWidth, 256)
        XCTAssertEqual(env.load(url).calls.last?.cacheType, .memory, "the disk hit filled memory")
        XCTAssertEqual(env.server.hits("/baseline.jpg"), 1)
    }

    // MARK: Views

    /// Parity: FAQ-17, VIEW-01 — two views asking for one URL at once cause one request; both show the image.
    @MainActor
    func test_FLOW_twoViewsOneURLOneRequest() {
        let data = TestFixtures.dataOrFail("gradient.png")
        env.server.route("/shared.png", SDPortTestRoute.data(data, contentType: "image/png").delay(0.2))
        let url = env.server.url("/shared.png")
        let first = UIImageView()
        let second = UIImageView()
        let done = Recorder<Bool>()
        first.sd_setImage(with: url, context: context) { image, _, _, _ in done.append(image != nil) }
        second.sd_setImage(with: url, context: context) { image, _, _, _ in done.append(image != nil) }
        XCTAssertTrue(waitUntil { done.count == 2 })
        XCTAssertEqual(done.values, [true, true])
        XCTAssertEqual(env.server.hits("/shared.png"), 1)
        XCTAssertNotNil(first.image)
        XCTAssertTrue(first.image === second.image, "one download, one decoded image")
    }

    /// Parity: VIEW-02, MGR-10 — a new load on a view cancels the old one, whose completion is never called,
    /// even though its download would have finished.
    @MainActor
    func test_VIEW02_newLoadCancelsOldWhoseCompletionIsNeverCalled() {
        let slow = TestFixtures.dataOrFail("gradient.png")
        env.server.route("/slow.png", SDPortTestRoute.data(slow, contentType: "image/png").delay(0.3))
        let fast = env.serveOrFail("rgba.png")
        let imageView = UIImageView()
        let old = Recorder<Bool>()
        let new = Recorder<UIImage?>()
        imageView.sd_setImage(with: env.server.url("/slow.png"), context: context) { _, _, _, _ in old.append(true) }
        XCTAssertTrue(waitUntil { self.env.server.hits("/slow.png") == 1 })
        imageView.sd_setImage(with: fast, context: context) { image, _, _, _ in new.append(image) }
        XCTAssertTrue(waitUntil { new.count == 1 })
        XCTAssertTrue(waitUntil { !self.env.manager.isRunning && self.env.downloader.runningURLCount == 0 })
        drainMainQueue()
        XCTAssertEqual(old.count, 0)
        // No XCTUnwrap: a @MainActor test cannot throw (Linux XCTest's test list casts it to a non-throwing one).
        guard let loaded = new.values.first else { return XCTFail("the new load never completed") }
        XCTAssertTrue(imageView.image === loaded)
        XCTAssertEqual(imageView.image?.pixelWidth, 32, "rgba.png, not the slow gradient")
    }

    // MARK: Cancelled at random moments

    /// Parity: MGR-10, MGR-11 — 1 000 loads, each cancelled at a moment a seeded generator picks (at once, on a
    /// later main-queue turn, from a background queue racing the load, after a short random delay, or never).
    /// No completion is ever called after its `cancel()` returned, every load that was not cancelled completes
    /// exactly once with finished = true, and nothing crashes.
    func test_MGR10_thousandRandomCancelsNeverCallACompletionAfterCancel() throws {
        var generator = SeededGenerator(seed: 0x5D_0A7_2024)
        let data = try TestFixtures.data("rgba.png")
        env.server.route("/r.png", .data(data, contentType: "image/png"))
        env.downloader.maxConcurrentDownloads = 6
        let violations = Recorder<String>()
        let finishedUncancelled = Recorder<Int>()
        let uncancelled = Recorder<Int>()
        let pendingCancels = DispatchGroup()

        for index in 0..<1_000 {
            // A third of the URLs repeat (memory or disk hits, joined downloads); the rest are new.
            let path =
                generator.next(upperBound: 3) == 0
                ? "/r.png?shared=\(generator.next(upperBound: 5))" : "/r.png?n=\(index)"
            let url = env.server.url(path)
            if generator.next(upperBound: 10) == 0 { env.cache.clearMemory() }
            let cancelReturned = Locked(false)
            let operation = env.manager.loadImage(with: url) { image, _, error, _, finished, _ in
                if cancelReturned.value { violations.append("load \(index): completion after cancel") }
                if !cancelReturned.value, finished { finishedUncancelled.append(index) }
                if finished && image == nil && error == nil {
                    violations.append("load \(index): finished with nothing")
                }
            }
            pendingCancels.enter()
            let cancel: @Sendable () -> Void = {
                operation.cancel()
                cancelReturned.value = true
                pendingCancels.leave()
            }
            switch generator.next(upperBound: 5) {
            case 0: cancel()
            case 1: DispatchQueue.main.async(execute: cancel)
            case 2: DispatchQueue.global().async(execute: cancel)
            case 3:
                DispatchQueue.global().asyncAfter(
                    deadline: .now() + .microseconds(Int(generator.next(upperBound: 3_000))),
                    execute: cancel)
            default:
                uncancelled.append(index)
                pendingCancels.leave()
            }
            if index % 25 == 24 {
                XCTAssertTrue(
                    waitUntil(timeout: 30) { !self.env.manager.isRunning }, "loads settle (batch \(index / 25))")
            }
        }
        // Every scheduled cancel has returned, nothing runs, and the main queue has delivered what it had.
        let allCancelled = Locked(false)
        pendingCancels.notify(queue: .global()) { allCancelled.value = true }
        XCTAssertTrue(waitUntil(timeout: 30) { allCancelled.value && !self.env.manager.isRunning })
        drainMainQueue()
        XCTAssertEqual(violations.values, [])
        let finished = Dictionary(grouping: finishedUncancelled.values, by: { $0 })
        for index in uncancelled.values {
            XCTAssertEqual(finished[index]?.count, 1, "load \(index) was never cancelled and must finish once")
        }
        XCTAssertGreaterThan(uncancelled.count, 100)
    }
}
