import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// MUS-05: a caller that joins a download already delivering its results is dropped. 4.4.8 lets a caller join
/// any operation not yet finished (`SDWebImageDownloader.m:299`), but the operation has already taken its list of
/// completion blocks (`SDWebImageDownloaderOperation.m:498`) and `reset` then throws the joiner's away
/// (`SDWebImageDownloaderOperation.m:241`). The port refuses such a join, as 5.15.1; the regress patch puts
/// 4.4.8's check back.
final class MUS05_LateJoinerTests: XCTestCase {
    private var env: DownloaderTestEnvironment!

    override func setUpWithError() throws {
        env = try DownloaderTestEnvironment(prefix: "mus05") { server in
            if let data = try? TestFixtures.data("rgba.png") {
                server.route("/a.png", .data(data, contentType: "image/png"))
            }
        }
        env.downloader.setOperationClass(MUSGatedFinishOperation.self)
        MUSGatedFinishOperation.armed.value = true
    }

    override func tearDown() {
        MUSGatedFinishOperation.armed.value = false
        env.tearDown()
        env = nil
    }

    /// Starts the first download and waits until it stands between its snapshot and its finish.
    private func startFirst(_ url: URL, first: XCTestExpectation) -> SDWebImageDownloadToken? {
        let token = env.downloader.downloadImage(with: url, options: [], progress: nil) { _, _, _, finished in
            if finished { first.fulfill() }
        }
        XCTAssertEqual(
            MUSGatedFinishOperation.reached.wait(timeout: .now() + 30), .success, "the first download reached the gate")
        return token
    }

    /// Fixed side (the port): the joiner is refused by the finishing operation and gets a download of its own.
    func test_MUS05_joinerAfterTheSnapshotGetsANewDownload() throws {
        try MuseumSide.requireUnpatched("MUS-05")
        let url = env.server.url("/a.png")
        let first = expectation(description: "first")
        let joiner = expectation(description: "joiner")
        let firstToken = startFirst(url, first: first)
        let images = Recorder<UIImage?>()
        let joinerToken = env.downloader.downloadImage(with: url, options: [], progress: nil) { image, _, _, finished in
            if finished {
                images.append(image)
                joiner.fulfill()
            }
        }
        XCTAssertNotNil(joinerToken?.downloadOperation)
        XCTAssertFalse(joinerToken?.downloadOperation === firstToken?.downloadOperation, "a new operation")
        MUSGatedFinishOperation.release.signal()
        wait(for: [first, joiner], timeout: 30)
        drainMainQueue()
        XCTAssertEqual(images.count, 1, "the joiner is answered exactly once")
        XCTAssertNotNil(images.values.first ?? nil)
        XCTAssertEqual(env.server.hits("/a.png"), 2)
    }

    /// Faithful side (regressed to 4.4.8): the joiner joins the finishing operation and is never called.
    func test_MUS05_regressed_joinerAfterTheSnapshotIsDropped() throws {
        try MuseumSide.requirePatched("MUS-05")
        let url = env.server.url("/a.png")
        let first = expectation(description: "first")
        let firstToken = startFirst(url, first: first)
        let joinerCalls = Locked(0)
        let joinerToken = env.downloader.downloadImage(with: url, options: [], progress: nil) { _, _, _, _ in
            joinerCalls.value += 1
        }
        XCTAssertTrue(
            joinerToken?.downloadOperation === firstToken?.downloadOperation, "it joined the finishing operation")
        MUSGatedFinishOperation.release.signal()
        wait(for: [first], timeout: 30)
        XCTAssertTrue(waitUntil { self.env.downloader.runningOperation(for: url) == nil })
        drainMainQueue()
        XCTAssertEqual(joinerCalls.value, 0, "the joiner is dropped (4.4.8's bug)")
        XCTAssertEqual(env.server.hits("/a.png"), 1)
    }
}
