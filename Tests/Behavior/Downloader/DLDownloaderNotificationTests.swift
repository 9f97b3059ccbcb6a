import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// The downloader's four notifications (4.4.8 `SDWebImageDownloaderOperation.m`): names, order, the
/// operation as object, and delivery on the main queue.
final class DLDownloaderNotificationTests: XCTestCase {
    private struct Posted {
        let name: Notification.Name
        let operation: AnyObject?
        let onMainThread: Bool
    }

    private var server: SDPortTestServer!
    private var downloader: SDWebImageDownloader!
    private var observers: [NSObjectProtocol] = []
    private let posted = Locked<[Posted]>([])

    override func setUpWithError() throws {
        server = SDPortTestServer()
        server.route("/a.jpg", .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg"))
        server.route("/missing.jpg", .status(404))
        try server.start()
        downloader = SDWebImageDownloader(sessionConfiguration: nil)
        for name in [
            SDWebImageDownloadStartNotification, SDWebImageDownloadReceiveResponseNotification,
            SDWebImageDownloadStopNotification, SDWebImageDownloadFinishNotification,
        ] {
            observers.append(
                NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { [posted] note in
                    posted.update {
                        $0.append(
                            Posted(
                                name: note.name, operation: note.object as AnyObject?,
                                onMainThread: Thread.isMainThread))
                    }
                })
        }
    }

    override func tearDown() {
        observers.forEach(NotificationCenter.default.removeObserver)
        downloader = nil
        server.stop()
        server = nil  // XCTest keeps test objects to the end; LeakSanitizer flagged live servers
    }

    /// Downloads `path`; returns the notifications posted by its operation once "stop" has arrived.
    private func notifications(for path: String) throws -> (
        operation: Operation, names: [Notification.Name], allOnMain: Bool
    ) {
        let done = expectation(description: path)
        let recorder = DownloadRecorder { done.fulfill() }
        let token = downloader.downloadImage(
            with: server.url(path), options: [], progress: nil, completed: recorder.completed)
        let operation = try XCTUnwrap(token?.downloadOperation)
        wait(for: [done], timeout: 10)
        let mine = { self.posted.value.filter { $0.operation === operation } }
        XCTAssertTrue(waitUntil { mine().contains { $0.name == SDWebImageDownloadStopNotification } })
        return (operation, mine().map(\.name), mine().allSatisfy(\.onMainThread))
    }

    /// Parity: DL-13 — a successful download posts start, receive response, stop, finish, in that order, on
    /// the main queue, with its operation as the object.
    func test_DL13_successPostsStartResponseStopFinishOnMain() throws {
        let result = try notifications(for: "/a.jpg")
        XCTAssertEqual(
            result.names,
            [
                SDWebImageDownloadStartNotification, SDWebImageDownloadReceiveResponseNotification,
                SDWebImageDownloadStopNotification, SDWebImageDownloadFinishNotification,
            ])
        XCTAssertTrue(result.allOnMain)
        XCTAssertEqual(SDWebImageDownloadStartNotification.rawValue, "SDWebImageDownloadStartNotification")
        XCTAssertEqual(
            SDWebImageDownloadReceiveResponseNotification.rawValue, "SDWebImageDownloadReceiveResponseNotification")
        XCTAssertEqual(SDWebImageDownloadStopNotification.rawValue, "SDWebImageDownloadStopNotification")
        XCTAssertEqual(SDWebImageDownloadFinishNotification.rawValue, "SDWebImageDownloadFinishNotification")
    }

    /// Parity: DL-13 — a failed download (404) posts start, receive response and stop, but no finish.
    func test_DL13_failurePostsNoFinish() throws {
        let result = try notifications(for: "/missing.jpg")
        XCTAssertEqual(
            result.names,
            [
                SDWebImageDownloadStartNotification, SDWebImageDownloadReceiveResponseNotification,
                SDWebImageDownloadStopNotification,
            ])
        XCTAssertTrue(result.allOnMain)
    }
}
