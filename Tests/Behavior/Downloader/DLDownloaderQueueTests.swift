import Foundation
import SDPortTestServer
import SDPortTestSupport
import XCTest

@testable import SDPort

/// How `SDWebImageDownloader` queues, joins, orders, suspends and cancels operations (4.4.8
/// `downloadImageWithURL:options:progress:completed:`, `cancel:`, `setSuspended:`, `cancelAllDownloads`).
final class DLDownloaderQueueTests: XCTestCase {
    private var server: SDPortTestServer!
    private var downloader: SDWebImageDownloader!

    override func setUpWithError() throws {
        server = SDPortTestServer()
        for name in ["a", "b", "c", "d"] {
            server.route("/\(name).jpg", .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg"))
        }
        server.route("/slow.jpg", .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg").delay(0.2))
        server.route("/stall.jpg", .stall)
        try server.start()
        downloader = SDWebImageDownloader(sessionConfiguration: nil)
    }

    override func tearDown() {
        downloader = nil
        server.stop()
        server = nil  // XCTest keeps test objects to the end; LeakSanitizer flagged live servers
    }

    /// Starts a download whose final completion fulfils `done`.
    @discardableResult
    private func start(_ path: String, options: SDWebImageDownloaderOptions = [], recorder: DownloadRecorder)
        -> SDWebImageDownloadToken?
    {
        downloader.downloadImage(
            with: server.url(path), options: options, progress: recorder.progress,
            completed: recorder.completed)
    }

    // MARK: DL-06

    /// Parity: DL-06 — a nil URL completes at once with (nil, nil, nil, false) and returns no token.
    func test_DL06_nilURLCompletesAtOnceWithoutToken() {
        let recorder = DownloadRecorder()
        let token = downloader.downloadImage(
            with: nil, options: [], progress: recorder.progress, completed: recorder.completed)
        XCTAssertNil(token)
        XCTAssertEqual(recorder.completions.count, 1, "called before downloadImage returned")
        let completion = recorder.completions.first
        XCTAssertNil(completion?.image)
        XCTAssertNil(completion?.data)
        XCTAssertNil(completion?.error)
        XCTAssertEqual(completion?.finished, false)
        XCTAssertEqual(downloader.runningURLCount, 0)
        XCTAssertEqual(downloader.currentDownloadCount, 0)
    }

    /// Parity: DL-06 — a second request for a running URL joins its operation (one request on the wire, both
    /// callers served); the finished operation leaves `URLOperations`.
    func test_DL06_sameURLJoinsTheRunningOperationThenLeaves() {
        let first = expectation(description: "first caller")
        let second = expectation(description: "second caller")
        let firstRecorder = DownloadRecorder { first.fulfill() }
        let secondRecorder = DownloadRecorder { second.fulfill() }
        let firstToken = start("/slow.jpg", recorder: firstRecorder)
        let secondToken = start("/slow.jpg", recorder: secondRecorder)
        XCTAssertNotNil(firstToken?.downloadOperation)
        XCTAssertTrue(firstToken?.downloadOperation === secondToken?.downloadOperation)
        XCTAssertEqual(downloader.runningURLCount, 1)
        wait(for: [first, second], timeout: 10)
        XCTAssertEqual(server.hits("/slow.jpg"), 1)
        XCTAssertNil(firstRecorder.final?.error)
        XCTAssertNotNil(firstRecorder.final?.image)
        XCTAssertNotNil(secondRecorder.final?.image)
        XCTAssertTrue(
            waitUntil { self.downloader.runningURLCount == 0 }, "the finished operation must leave URLOperations")
    }

    /// Parity: DL-06 — a request made after the operation finished starts a new one.
    func test_DL06_afterFinishingANewOperationIsMade() {
        let first = expectation(description: "first")
        let firstRecorder = DownloadRecorder { first.fulfill() }
        let firstToken = start("/a.jpg", recorder: firstRecorder)
        wait(for: [first], timeout: 10)
        let second = expectation(description: "second")
        let secondRecorder = DownloadRecorder { second.fulfill() }
        let secondToken = start("/a.jpg", recorder: secondRecorder)
        wait(for: [second], timeout: 10)
        XCTAssertEqual(server.hits("/a.jpg"), 2)
        XCTAssertEqual(secondRecorder.finalCompletions.count, 1)
        XCTAssertFalse(
            firstToken?.downloadOperation != nil && firstToken?.downloadOperation === secondToken?.downloadOperation)
    }

    /// Parity: DL-06 — a caller asking for the same URL from inside a completion block gets a new download
    /// and its own completion (the operation is finished before its blocks run).
    func test_DL06_requestFromInsideACompletionStartsANewDownload() {
        let nested = expectation(description: "nested download")
        let nestedRecorder = DownloadRecorder { nested.fulfill() }
        let outer = DownloadRecorder()
        downloader.downloadImage(with: server.url("/a.jpg"), options: [], progress: nil) {
            [downloader, server] _, _, _, _ in
            outer.completed(nil, nil, nil, true)
            downloader!.downloadImage(
                with: server!.url("/a.jpg"), options: [], progress: nil, completed: nestedRecorder.completed)
        }
        wait(for: [nested], timeout: 10)
        XCTAssertEqual(server.hits("/a.jpg"), 2)
        XCTAssertEqual(nestedRecorder.finalCompletions.count, 1)
    }

    // MARK: DL-10

    /// Parity: DL-10 — LIFO: with one download at a time, queued operations start newest first
    /// (4.4.8: the previously added operation depends on the new one).
    func test_DL10_lifoStartsTheNewestFirst() {
        XCTAssertEqual(
            startOrder(for: ["/a.jpg", "/b.jpg", "/c.jpg", "/d.jpg"], order: .lifo),
            ["/d.jpg", "/c.jpg", "/b.jpg", "/a.jpg"])
    }

    /// Parity: DL-10 — FIFO (the default) starts them in the order asked.
    func test_DL10_fifoStartsInOrder() {
        XCTAssertEqual(
            startOrder(for: ["/a.jpg", "/b.jpg", "/c.jpg", "/d.jpg"], order: .fifo),
            ["/a.jpg", "/b.jpg", "/c.jpg", "/d.jpg"])
    }

    /// Queues `paths` on a suspended downloader running one download at a time, resumes it, and returns the
    /// order in which the operations posted their start notification.
    private func startOrder(for paths: [String], order: SDWebImageDownloaderExecutionOrder) -> [String] {
        downloader.executionOrder = order
        downloader.maxConcurrentDownloads = 1
        downloader.setSuspended(true)
        let started = Locked<[String]>([])
        let observer = NotificationCenter.default.addObserver(
            forName: SDWebImageDownloadStartNotification, object: nil,
            queue: nil
        ) { note in
            if let operation = note.object as? SDWebImageDownloaderOperation, let path = operation.request?.url?.path {
                started.update { $0.append(path) }
            }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        var expectations: [XCTestExpectation] = []
        for path in paths {
            let done = expectation(description: path)
            expectations.append(done)
            start(path, recorder: DownloadRecorder { done.fulfill() })
        }
        downloader.setSuspended(false)
        wait(for: expectations, timeout: 20)
        XCTAssertTrue(waitUntil { started.value.count == paths.count })
        XCTAssertEqual(server.maxConcurrentRequests, 1)
        return started.value
    }

    // MARK: DL-11

    /// Parity: DL-11 — cancelling one caller's token removes only its callbacks; the other caller still gets
    /// the image and the download is not repeated (the original's issue #883).
    func test_DL11_cancellingOneOfTwoCallersKeepsTheOther() {
        let kept = expectation(description: "kept caller")
        let cancelledRecorder = DownloadRecorder()
        let keptRecorder = DownloadRecorder { kept.fulfill() }
        let cancelledToken = start("/slow.jpg", recorder: cancelledRecorder)
        start("/slow.jpg", recorder: keptRecorder)
        downloader.cancel(cancelledToken)
        XCTAssertEqual(downloader.runningURLCount, 1, "the operation still has a caller")
        XCTAssertEqual(cancelledToken?.downloadOperation?.isCancelled, false)
        wait(for: [kept], timeout: 10)
        XCTAssertNotNil(keptRecorder.final?.image)
        XCTAssertTrue(cancelledRecorder.completions.isEmpty, "a cancelled caller is never called")
        XCTAssertTrue(
            cancelledRecorder.progressCalls.isEmpty
                || cancelledRecorder.progressCalls.count < keptRecorder.progressCalls.count)
        XCTAssertEqual(server.hits("/slow.jpg"), 1)
    }

    /// Parity: DL-11 — cancelling the last caller cancels the operation, which leaves `URLOperations`
    /// at once; its completion is never called, and the slot is free for the next download.
    func test_DL11_cancellingTheLastCallerCancelsTheOperation() throws {
        downloader.maxConcurrentDownloads = 1
        let recorder = DownloadRecorder()
        let token = try XCTUnwrap(start("/stall.jpg", recorder: recorder))
        let operation = try XCTUnwrap(token.downloadOperation)
        XCTAssertTrue(waitUntil { self.server.hits("/stall.jpg") == 1 }, "the request reached the server")
        downloader.cancel(token)
        XCTAssertTrue(operation.isCancelled)
        XCTAssertEqual(downloader.runningURLCount, 0)
        XCTAssertTrue(waitUntil { operation.isFinished })

        let next = expectation(description: "next download")
        let nextRecorder = DownloadRecorder { next.fulfill() }
        start("/a.jpg", recorder: nextRecorder)
        wait(for: [next], timeout: 10)
        XCTAssertNotNil(nextRecorder.final?.image)
        XCTAssertTrue(recorder.completions.isEmpty)
    }

    /// Parity: DL-11 — `token.cancel()` does the same as `downloader.cancel(token)` for the operation.
    func test_DL11_tokenCancelCancelsTheOperation() throws {
        let recorder = DownloadRecorder()
        let token = try XCTUnwrap(start("/stall.jpg", recorder: recorder))
        let operation = try XCTUnwrap(token.downloadOperation)
        token.cancel()
        XCTAssertTrue(operation.isCancelled)
        XCTAssertTrue(waitUntil { self.downloader.runningURLCount == 0 && operation.isFinished })
        XCTAssertTrue(recorder.completions.isEmpty)
    }

    // MARK: DL-12

    /// Parity: DL-12 — a suspended downloader queues without starting; resuming starts the queued downloads.
    func test_DL12_suspendAndResume() {
        downloader.setSuspended(true)
        let done = expectation(description: "download after resume")
        let recorder = DownloadRecorder { done.fulfill() }
        start("/a.jpg", recorder: recorder)
        XCTAssertEqual(downloader.currentDownloadCount, 1)
        XCTAssertEqual(server.hits("/a.jpg"), 0)
        XCTAssertTrue(recorder.progressCalls.isEmpty, "a queued operation has not started")
        downloader.setSuspended(false)
        wait(for: [done], timeout: 10)
        XCTAssertEqual(server.hits("/a.jpg"), 1)
        XCTAssertNotNil(recorder.final?.image)
    }

    /// Parity: DL-12 — `cancelAllDownloads` cancels queued and running operations; none calls its completion
    /// and the queue empties.
    func test_DL12_cancelAllDownloads() {
        let stalled = DownloadRecorder()
        start("/stall.jpg", recorder: stalled)
        XCTAssertTrue(waitUntil { self.server.hits("/stall.jpg") == 1 })
        downloader.setSuspended(true)
        let queued = (0..<3).map { _ in DownloadRecorder() }
        for (index, recorder) in queued.enumerated() {
            start(["/a.jpg", "/b.jpg", "/c.jpg"][index], recorder: recorder)
        }
        XCTAssertEqual(downloader.currentDownloadCount, 4)
        downloader.cancelAllDownloads()
        downloader.setSuspended(false)
        XCTAssertTrue(waitUntil { self.downloader.currentDownloadCount == 0 }, "cancelled operations leave the queue")
        XCTAssertTrue(waitUntil { self.downloader.runningURLCount == 0 })
        XCTAssertEqual(server.hits("/a.jpg") + server.hits("/b.jpg") + server.hits("/c.jpg"), 0)
        XCTAssertTrue(stalled.completions.isEmpty)
        XCTAssertTrue(queued.allSatisfy { $0.completions.isEmpty })
    }
}
