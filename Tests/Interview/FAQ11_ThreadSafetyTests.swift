import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// Proves FAQ-11: the card is `Docs/knowledge/faq/FAQ-11.json` (question, answer, citations; `sdport faq 11` prints
/// it).
///
/// Reads the io queue's label; holds the io queue with a gate and checks that a store, an existence check and a removal
/// wait for it, then run in order once it is released; cancels a disk query before the io queue reaches it and checks
/// that its done block is never called; uses the memory cache from many threads at once.
final class FAQ11_ThreadSafetyTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var cache: SDImageCache!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "sdport-faq11")
        cache = SDImageCache(namespace: "faq11", diskCacheDirectory: directory.path)
    }

    override func tearDown() {
        cache = nil
        directory.remove()
    }

    /// Parity: FAQ-11 — one serial io queue with the original's label.
    func test_FAQ11_ioQueueLabel() {
        XCTAssertEqual(cache.ioQueue.label, "com.hackemist.SDWebImageCache")
        XCTAssertFalse(cache.isOnIOQueue)
        let cache = self.cache!
        cache.ioQueue.sync { XCTAssertTrue(cache.isOnIOQueue) }
    }

    /// Parity: FAQ-11 — disk writes, reads and deletes all wait for the io queue (a query with `QueryDiskSync`
    /// is the exception: it reads on the caller's thread): while it is held, a store writes nothing, a check
    /// answers nothing and a removal deletes nothing; released, they run in order.
    func test_FAQ11_diskWorkRunsOnTheIOQueue() throws {
        let cache = self.cache!
        cache.storeImageData(toDisk: Data([1]), forKey: "existing")
        cache.clearMemory()
        let gate = DispatchSemaphore(value: 0)
        cache.ioQueue.async { gate.wait() }

        let order = Recorder<String>()
        let image = UIImage(pixelWidth: 1, pixelHeight: 1, pixels: [0, 0, 0, 255], hasAlpha: false)
        cache.store(image, imageData: Data([2]), forKey: "new", toDisk: true) { order.append("stored") }
        cache.diskImageExists(withKey: "existing") { exists in order.append("exists: \(exists)") }
        cache.removeImage(forKey: "existing") { order.append("removed") }

        let path = try XCTUnwrap(cache.defaultCachePath(forKey: "new"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "the write waits for the io queue")
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: try XCTUnwrap(cache.defaultCachePath(forKey: "existing"))),
            "so does the delete")
        XCTAssertTrue(cache.imageFromMemoryCache(forKey: "new") === image, "memory is not behind the io queue")

        gate.signal()
        let drained = expectation(description: "main queue drained")
        cache.ioQueue.async { DispatchQueue.main.async { drained.fulfill() } }
        wait(for: [drained], timeout: 10)
        // The check saw the file, so it ran before the delete queued after it: one serial queue, in order.
        XCTAssertEqual(order.values, ["stored", "exists: true", "removed"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
    }

    /// Parity: FAQ-11 — the returned operation is only a token: it is never started; cancelled before the io queue
    /// reaches it, done is never called.
    func test_FAQ11_cancelledQueryNeverCallsDone() throws {
        let cache = self.cache!
        cache.storeImageData(toDisk: Data([1]), forKey: "k")
        let gate = DispatchSemaphore(value: 0)
        cache.ioQueue.async { gate.wait() }
        let called = Recorder<String>()
        let operation = cache.queryCacheOperation(forKey: "k") { _, _, _ in called.append("done") }
        let token = try XCTUnwrap(operation)
        XCTAssertFalse(token.isExecuting)
        XCTAssertFalse(token.isFinished)
        token.cancel()
        gate.signal()
        let drained = expectation(description: "drained")
        cache.ioQueue.async { DispatchQueue.main.async { drained.fulfill() } }
        wait(for: [drained], timeout: 10)
        XCTAssertEqual(called.values, [])
    }

    /// Parity: FAQ-11 — the memory cache is safe to use from many threads at once.
    func test_FAQ11_memoryCacheIsThreadSafe() {
        let cache = self.cache!
        cache.maxMemoryCountLimit = 20
        let images = (0..<40).map {
            UIImage(pixelWidth: 1, pixelHeight: 1, pixels: [UInt8($0), 0, 0, 255], hasAlpha: false)
        }
        let done = expectation(description: "done")
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: 8) { worker in
                for i in 0..<1_000 {
                    let k = (i + worker * 5) % images.count
                    if i % 3 == 0 {
                        cache.removeImage(forKey: "k\(k)", fromDisk: false, withCompletion: nil)
                    } else if i % 3 == 1 {
                        cache.storeImage(toMemory: images[k], forKey: "k\(k)")
                    } else if let found = cache.imageFromMemoryCache(forKey: "k\(k)") {
                        XCTAssertTrue(found === images[k])
                    }
                }
            }
            done.fulfill()
        }
        wait(for: [done], timeout: 60)
        XCTAssertLessThanOrEqual(cache.memCache.count, 20)
    }
}
