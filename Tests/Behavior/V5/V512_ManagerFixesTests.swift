import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// V5-12, the loader and manager half: the 5.x flow has 5.21.5's answer to a cancel below the manager, and
/// 5.21.5's callback queue. Each test runs on a loopback server whose stalling route holds a download open until
/// the test cancels it; nothing waits for time to pass.
final class V512_ManagerFixesTests: XCTestCase {
    private var env: ManagerTestEnvironment!

    override func setUpWithError() throws {
        env = try ManagerTestEnvironment(namespace: "v512-manager")
    }

    override func tearDown() {
        env.tearDown()
        env = nil
    }

    private struct Answer: Sendable {
        let caller: String
        let code: Int?
        let hasImage: Bool
        let finished: Bool
    }

    /// A 5.x load of `url` whose answers go to `answers` under `caller`.
    @discardableResult
    private func loadV5(_ url: URL, caller: String, into answers: Recorder<Answer>) -> SDWebImageCombinedOperation {
        env.manager.loadImage(with: url, options: [], context: nil, progress: nil) { image, _, error, _, finished, _ in
            answers.append(
                Answer(caller: caller, code: (error as NSError?)?.code, hasImage: image != nil, finished: finished))
        }
    }

    /// Runs the main queue and the cache's io queue until the cache queries of loads started so far have answered,
    /// so each load has reached the downloader.
    private func letQueriesAnswer() {
        env.cache.ioQueue.sync {}
        drainMainQueue()
    }

    /// V5-12 — `cancelAllDownloads` (a cancel below the manager) calls each 5.x caller of the download back once,
    /// with `SDWebImageErrorCancelled` (2002), finished, and the loads leave `runningOperations`; the URL is not
    /// put on the failed-URL list. A 4.x caller joined to the same download stays silent and listed (4.4.8). On the
    /// main thread the answers come before `cancelAllDownloads` returns (5.21.5's main-queue policy).
    func test_V512_cancelAllDownloadsAnswersEach5xCallerOnceWith2002() {
        env.server.route("/stall.png", .stall)
        let url = env.server.url("/stall.png")
        let answers = Recorder<Answer>()
        loadV5(url, caller: "a", into: answers)
        XCTAssertTrue(waitUntil { self.env.server.hits("/stall.png") == 1 })
        loadV5(url, caller: "b", into: answers)
        let v4Calls = Recorder<Int>()
        env.manager.loadImage(with: url, options: [], progress: nil) { _, _, _, _, _, _ in v4Calls.append(1) }
        letQueriesAnswer()
        XCTAssertEqual(env.manager.runningOperations.count, 3)
        XCTAssertEqual(env.server.hits("/stall.png"), 1, "all three joined one download")

        env.downloader.cancelAllDownloads()
        XCTAssertEqual(
            answers.values.map(\.caller).sorted(), ["a", "b"], "answered before cancelAllDownloads returned")

        XCTAssertTrue(env.waitForDownloadsToEnd())
        XCTAssertEqual(answers.count, 2, "once each")
        for answer in answers.values {
            XCTAssertEqual(answer.code, 2002, answer.caller)
            XCTAssertFalse(answer.hasImage, answer.caller)
            XCTAssertTrue(answer.finished, answer.caller)
        }
        XCTAssertEqual(v4Calls.count, 0, "4.4.8: the 4.x caller is called by nobody")
        XCTAssertEqual(env.manager.runningOperations.count, 1, "only the 4.x load is still listed")
        XCTAssertFalse(env.manager.failedURLs.contains(url), "a cancel says nothing about the URL")
    }

    /// V5-12 — a new session (`createNewSession(with:)`, which cancels every download first) is a cancel below
    /// the manager too: the 5.x load answers 2002 once and is no longer running.
    func test_V512_newSessionAnswers2002AndEndsTheLoad() {
        env.server.route("/stall.png", .stall)
        let url = env.server.url("/stall.png")
        let answers = Recorder<Answer>()
        loadV5(url, caller: "a", into: answers)
        XCTAssertTrue(waitUntil { self.env.server.hits("/stall.png") == 1 })
        env.downloader.createNewSession(with: .default)
        XCTAssertTrue(env.waitForDownloadsToEnd())
        XCTAssertEqual(answers.values.map(\.code), [2002])
        XCTAssertFalse(env.manager.isRunning)
        XCTAssertFalse(env.manager.failedURLs.contains(url))
    }

    /// V5-12 — the downloader as a 5.x loader (5.21.5's `-[SDWebImageDownloaderOperation cancel:]`): a caller that
    /// cancels its own request while another caller still waits for the download is answered 2002 at once and
    /// alone; the download goes on for the other, who is answered 2002 once when the download itself is
    /// cancelled.
    func test_V512_loaderRequestCancelAnswersOnlyThatCaller() {
        env.server.route("/stall.png", .stall)
        let url = env.server.url("/stall.png")
        let answers = Recorder<Answer>()
        func request(_ caller: String) -> (any SDWebImageOperation)? {
            env.downloader.requestImage(with: url, options: [], context: nil, progress: nil) {
                image, _, error, finished in
                answers.append(
                    Answer(
                        caller: caller, code: (error as NSError?)?.code, hasImage: image != nil,
                        finished: finished))
            }
        }
        let first = request("first")
        XCTAssertTrue(waitUntil { self.env.server.hits("/stall.png") == 1 })
        let second = request("second")
        first?.cancel()
        XCTAssertEqual(answers.values.map(\.caller), ["first"])
        XCTAssertEqual(answers.values.first?.code, 2002)
        XCTAssertEqual(env.downloader.currentDownloadCount, 1, "the download goes on for the second caller")

        env.downloader.cancelAllDownloads()
        XCTAssertTrue(env.waitForDownloadsToEnd())
        XCTAssertEqual(answers.values.map(\.caller), ["first", "second"], "each once")
        XCTAssertEqual(answers.values.map(\.code), [2002, 2002])
        first?.cancel()
        second?.cancel()
        drainMainQueue()
        XCTAssertEqual(answers.count, 2, "a cancel after the answer calls nobody")
    }

    /// V5-12 — `SDCallbackQueue`'s four policies (5.21.5 `SDCallbackQueue.m`): where a block runs, and whether it
    /// runs before `async` returns.
    func test_V512_callbackQueuePoliciesRunWhereTheySay() {
        XCTAssertTrue(Thread.isMainThread)
        let serial = DispatchQueue(label: "v512.serial")

        // Main (safe async main thread): at once on the main thread, through the main queue from anywhere else.
        let main = SDCallbackQueue.main
        XCTAssertEqual(main.policy, .safeAsyncMainThread)
        XCTAssertTrue(Self.runsBeforeReturning(main))
        let fromBackground = Recorder<Bool>()
        XCTAssertFalse(
            Self.answer(on: serial) { Self.runsBeforeReturning(main) { fromBackground.append(Thread.isMainThread) } },
            "off the main thread it is queued")
        XCTAssertTrue(waitUntil { fromBackground.count == 1 })
        XCTAssertEqual(fromBackground.values, [true])

        // Safe execute: at once on its own queue, and for the main queue on the main thread; otherwise queued.
        let onSerial = SDCallbackQueue(dispatchQueue: serial)
        XCTAssertEqual(onSerial.policy, .safeExecute)
        let hold = DispatchSemaphore(value: 0)
        serial.async { hold.wait() }  // the serial queue held, so a block queued there cannot run meanwhile
        XCTAssertFalse(Self.runsBeforeReturning(onSerial), "from the main thread it goes to the serial queue")
        hold.signal()
        XCTAssertTrue(
            Self.answer(on: serial) { Self.runsBeforeReturning(onSerial) }, "on its own queue it runs at once")
        XCTAssertTrue(
            Self.runsBeforeReturning(SDCallbackQueue(dispatchQueue: .main)), "the main queue on the main thread")
        XCTAssertFalse(Self.answer(on: serial) { Self.runsBeforeReturning(SDCallbackQueue(dispatchQueue: .main)) })
        drainMainQueue()

        // Dispatch: always queued, even from its own queue.
        let dispatching = SDCallbackQueue(dispatchQueue: serial)
        dispatching.policy = .dispatch
        XCTAssertFalse(Self.answer(on: serial) { Self.runsBeforeReturning(dispatching) })

        // Invoke: always at once, on the caller's thread.
        let invoking = SDCallbackQueue(dispatchQueue: serial)
        invoking.policy = .invoke
        XCTAssertTrue(Self.runsBeforeReturning(invoking))
        XCTAssertTrue(Self.answer(on: DispatchQueue(label: "v512.other")) { Self.runsBeforeReturning(invoking) })

        // The port's completion queues map to 5.x's default for the main queue only.
        XCTAssertEqual(SDCallbackQueue(completionQueue: .main).policy, .safeAsyncMainThread)
        XCTAssertEqual(SDCallbackQueue(completionQueue: serial).policy, .safeExecute)
        serial.sync {}
    }

    /// Whether `queue.async` ran its block before returning. A block it queued cannot have run yet when its queue
    /// is held: the main queue by this (main) thread, another queue by the caller.
    private static func runsBeforeReturning(_ queue: SDCallbackQueue, _ then: @escaping @Sendable () -> Void = {})
        -> Bool
    {
        let ran = Locked(false)
        queue.async {
            ran.value = true
            then()
        }
        return ran.value
    }

    /// `body`'s answer, run on `queue` (off the main thread: `sync` would run it on this thread) while this
    /// thread waits.
    private static func answer(on queue: DispatchQueue, _ body: @escaping @Sendable () -> Bool) -> Bool {
        let answer = Locked(false)
        let done = DispatchSemaphore(value: 0)
        queue.async {
            answer.value = body()
            done.signal()
        }
        done.wait()
        return answer.value
    }

    /// V5-12 — 5.21.5's `test15CancelQueryShouldCallbackOnceInSync`: a 5.x cache query cancelled on the main thread
    /// calls its `done` before `cancel()` returns, once. The 4.x query's cancel stays silent (4.4.8).
    func test_V512_queryCancelledOnMainCallsBackBeforeCancelReturns() {
        let key = "v512-not-cached"
        let done = Recorder<SDImageCacheType>()
        let token = env.cache.queryImage(forKey: key, options: [], context: nil) { _, _, cacheType in
            done.append(cacheType)
        }
        XCTAssertEqual(done.count, 0, "a memory miss searches the disk asynchronously")
        token?.cancel()
        XCTAssertEqual(done.values, [.none], "called in the cancel, not later")
        token?.cancel()
        env.cache.ioQueue.sync {}
        drainMainQueue()
        XCTAssertEqual(done.count, 1)

        // The io queue held until the cancel: 4.4.8 checks the cancel only before the search starts.
        let gate = DispatchSemaphore(value: 0)
        env.cache.ioQueue.async { gate.wait() }
        let v4Done = Recorder<Int>()
        let v4Token = env.cache.queryCacheOperation(forKey: key, options: []) { _, _, _ in v4Done.append(1) }
        v4Token?.cancel()
        gate.signal()
        env.cache.ioQueue.sync {}
        drainMainQueue()
        XCTAssertEqual(v4Done.count, 0, "4.4.8's query calls nothing once cancelled")
    }

    /// V5-12 — a 5.x load cancelled on the main thread answers 2002 before `cancel()` returns, whether its cache
    /// query or its download was running (5.21.5 answers through `SDCallbackQueue.mainQueue`).
    func test_V512_cancelOnMainOf5xLoadAnswersBeforeCancelReturns() {
        env.server.route("/stall.png", .stall)
        let url = env.server.url("/stall.png")
        let answers = Recorder<Answer>()
        // During the cache query: the disk search cannot have answered, its answer needs the main queue.
        let querying = loadV5(url, caller: "query", into: answers)
        querying.cancel()
        XCTAssertEqual(answers.values.map(\.caller), ["query"])

        let downloading = loadV5(url, caller: "download", into: answers)
        XCTAssertTrue(waitUntil { self.env.server.hits("/stall.png") == 1 })
        downloading.cancel()
        XCTAssertEqual(answers.values.map(\.caller), ["query", "download"])
        XCTAssertTrue(env.waitForDownloadsToEnd())
        XCTAssertEqual(answers.values.map(\.code), [2002, 2002], "once each")
        XCTAssertFalse(env.manager.isRunning)
    }
}
