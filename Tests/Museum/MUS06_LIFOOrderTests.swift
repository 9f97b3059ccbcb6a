import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// MUS-06: LIFO order inverts when URLs are added while one is downloading. 4.4.8 emulates LIFO by making only
/// the previous newest operation wait for the new one (`SDWebImageDownloader.m:253-257`, `lastAddedOperation` weak at `:38`), so a chain built while
/// another download ran is still waiting ahead of anything added later. The patch makes every waiting operation
/// depend on the new one, as 5.2.0.
final class MUS06_LIFOOrderTests: XCTestCase {
    private var env: DownloaderTestEnvironment!
    /// The order in which operations started: each reports progress (0, unknown) from `start()`.
    private let order = Locked<[Int]>([])
    /// Downloads /1 and /7 wait in that first progress call, inside `start()`, holding the queue's only slot.
    private let holds = [1: DispatchSemaphore(value: 0), 7: DispatchSemaphore(value: 0)]

    override func setUpWithError() throws {
        let data = try TestFixtures.data("rgba.png")
        env = try DownloaderTestEnvironment(prefix: "mus06") { server in
            for index in 1...14 { server.route("/\(index)", .data(data, contentType: "image/png")) }
        }
        env.downloader.maxConcurrentDownloads = 1
        env.downloader.executionOrder = .lifo
    }

    override func tearDown() {
        for hold in holds.values { hold.signal() }
        env.tearDown()
        env = nil
    }

    /// Downloads /1; /2…/7 while /1 holds the slot; /8…/14 while /7 holds it. Returns the start order.
    private func run() -> [Int] {
        let done = expectation(description: "all 14")
        done.expectedFulfillmentCount = 14
        let (order, holds) = (self.order, self.holds)
        func download(_ index: Int) {
            env.downloader.downloadImage(
                with: env.server.url("/\(index)"), options: [],
                progress: { received, expected, _ in
                    guard received == 0, expected == -1 else { return }  // the call from start()
                    order.update { $0.append(index) }
                    _ = holds[index]?.wait(timeout: .now() + 30)
                },
                completed: { _, _, _, finished in
                    if finished { done.fulfill() }
                })
        }
        download(1)
        XCTAssertTrue(waitUntil { order.value == [1] })
        for index in 2...7 { download(index) }
        holds[1]?.signal()
        XCTAssertTrue(waitUntil { order.value.last == 7 }, "7, the newest, holds the slot")
        for index in 8...14 { download(index) }
        holds[7]?.signal()
        wait(for: [done], timeout: 60)
        return order.value
    }

    /// Faithful side: the chain built during /1's download (6…2) runs before everything added later.
    func test_MUS06_urlsAddedDuringADownloadRunAfterTheOldOnes() throws {
        try MuseumSide.requireUnpatched("MUS-06")
        XCTAssertEqual(
            run(), [1, 7, 6, 5, 4, 3, 2, 14, 13, 12, 11, 10, 9, 8], "the newest cells load last (4.4.8's bug)")
    }

    /// Fixed side (5.2.0): everything added while /7 ran comes first, newest first.
    func test_MUS06_fixed_urlsAddedDuringADownloadRunFirst() throws {
        try MuseumSide.requirePatched("MUS-06")
        XCTAssertEqual(run(), [1, 7, 14, 13, 12, 11, 10, 9, 8, 6, 5, 4, 3, 2])
    }
}
