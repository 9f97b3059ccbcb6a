import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// Storing: `store(_:imageData:forKey:toDisk:completion:)` and `storeImageData(toDisk:forKey:)` (CACHE-04, 05).
final class CACHE04_StoreTests: CACHETestCase {
    /// Parity: CACHE-04 — a nil image or a nil key: the completion runs at once and nothing is stored.
    func test_CACHE04_nilImageOrKeyCompletesAtOnce() {
        let calls = CACHELocked(0)
        cache.store(nil, imageData: Data([1, 2, 3]), forKey: "k", toDisk: true) { calls.mutate { $0 += 1 } }
        XCTAssertEqual(calls.value, 1, "completion before the call returns")
        cache.store(CACHETestImages.opaque(width: 1, height: 1), imageData: Data([1]), forKey: nil, toDisk: true) {
            calls.mutate { $0 += 1 }
        }
        XCTAssertEqual(calls.value, 2)
        drainQueues()
        XCTAssertNil(cache.imageFromMemoryCache(forKey: "k"))
        XCTAssertEqual(cacheDirectoryNames(), [])
    }

    /// Parity: CACHE-04 — with data: memory at once, the exact bytes on disk at `defaultCachePath(forKey:)`,
    /// written on the io queue; the completion runs on the main queue.
    func test_CACHE04_storeWithDataWritesTheBytesAndCompletesOnMain() throws {
        let image = CACHETestImages.opaque(width: 3, height: 3)
        let bytes = Data((0..<5_000).map { UInt8($0 % 251) })
        let done = expectation(description: "stored")
        cache.store(image, imageData: bytes, forKey: "http://example.com/a.png", toDisk: true) {
            XCTAssertTrue(Thread.isMainThread, "4.4.8 calls back on the main queue")
            done.fulfill()
        }
        XCTAssertTrue(
            cache.imageFromMemoryCache(forKey: "http://example.com/a.png") === image, "memory is filled at once")
        wait(for: [done], timeout: 10)
        let path = try XCTUnwrap(cache.defaultCachePath(forKey: "http://example.com/a.png"))
        XCTAssertEqual(FileManager.default.contents(atPath: path), bytes)
        XCTAssertEqual((path as NSString).deletingLastPathComponent, cache.diskCachePath)
    }

    /// Parity: CACHE-04 — completions run on `completionQueue` when it is changed (a port addition).
    func test_CACHE04_completionRunsOnTheConfiguredQueue() {
        let queue = DispatchQueue(label: "sdport.test.cache.completion")
        let marker = DispatchSpecificKey<Int>()
        queue.setSpecific(key: marker, value: 42)
        cache.completionQueue = queue
        let done = expectation(description: "stored")
        cache.store(CACHETestImages.opaque(width: 1, height: 1), imageData: Data([9]), forKey: "q", toDisk: true) {
            XCTAssertEqual(DispatchQueue.getSpecific(key: marker), 42)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
    }

    /// Parity: CACHE-04 — `toDisk: false` stores in memory only and completes at once.
    func test_CACHE04_memoryOnlyStoreCompletesAtOnce() {
        let calls = CACHELocked(0)
        cache.store(CACHETestImages.opaque(width: 1, height: 1), imageData: Data([1]), forKey: "m", toDisk: false) {
            calls.mutate { $0 += 1 }
        }
        XCTAssertEqual(calls.value, 1)
        XCTAssertNotNil(cache.imageFromMemoryCache(forKey: "m"))
        drainQueues()
        XCTAssertEqual(cacheDirectoryNames(), [])
    }

    /// Parity: CACHE-04 — with `shouldCacheImagesInMemory` off, a store touches only the disk.
    func test_CACHE04_memoryCacheOffSkipsMemory() {
        cache.config.shouldCacheImagesInMemory = false
        storeData(Data([1, 2]), forKey: "nomem")
        XCTAssertNil(cache.imageFromMemoryCache(forKey: "nomem"))
        XCTAssertTrue(cache.diskImageDataExists(withKey: "nomem"))
    }

    /// Parity: CACHE-04 — no data: an image with alpha is encoded as PNG, an opaque one as JPEG.
    func test_CACHE04_storeWithoutDataEncodesPNGForAlphaJPEGOtherwise() throws {
        let stored = expectation(description: "stored")
        stored.expectedFulfillmentCount = 2
        cache.store(CACHETestImages.translucent(width: 8, height: 8), forKey: "alpha", completion: { stored.fulfill() })
        cache.store(CACHETestImages.opaque(width: 8, height: 8), forKey: "opaque", completion: { stored.fulfill() })
        wait(for: [stored], timeout: 10)
        let alpha = cache.diskImageData(forKey: "alpha")
        let opaque = cache.diskImageData(forKey: "opaque")
        XCTAssertEqual(Data.sd_imageFormat(forImageData: alpha), .png)
        XCTAssertEqual(Data.sd_imageFormat(forImageData: opaque), .jpeg)
    }

    /// Parity: CACHE-05 — `storeImageData(toDisk:)` creates a missing directory and has written the file at
    /// `defaultCachePath(forKey:)` when it returns; nil data or key writes nothing.
    func test_CACHE05_storeImageDataToDiskCreatesDirectoryAndWritesBeforeReturning() {
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.diskCachePath))
        cache.storeImageData(toDisk: Data([7, 7, 7]), forKey: "sync")
        XCTAssertEqual(
            FileManager.default.contents(atPath: try XCTUnwrap(cache.defaultCachePath(forKey: "sync"))),
            Data([7, 7, 7]),
            "written before the call returns")

        cache.storeImageData(toDisk: nil, forKey: "nil-data")
        cache.storeImageData(toDisk: Data([1]), forKey: nil)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: try XCTUnwrap(cache.defaultCachePath(forKey: "nil-data"))))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache.diskCachePath).count, 1)
    }

    /// Parity: CACHE-05 — called from an arbitrary thread, `storeImageData(toDisk:)` hops onto the io queue and
    /// waits, as 4.4.8's `dispatch_sync` does. Shown with a gate: a block on the io queue holds it while a worker
    /// calls the store; the call does not return and nothing is written while the gate is closed (the gate block
    /// itself looks for the file as it lets go, still on the io queue); once it opens, the write runs after it
    /// and the call returns with the file there.
    func test_CACHE05_storeImageDataToDiskFromAnyThreadWaitsOnTheIOQueue() throws {
        let cache = self.cache!
        let order = CACHELocked<[String]>([])
        let path = try XCTUnwrap(cache.defaultCachePath(forKey: "worker"))
        let held = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let calling = DispatchSemaphore(value: 0)
        cache.ioQueue.async {
            held.signal()
            gate.wait()
            order.mutate {
                $0.append(
                    FileManager.default.fileExists(atPath: path) ? "gate opens, file there" : "gate opens, no file")
            }
        }
        XCTAssertEqual(held.wait(timeout: .now() + 10), .success, "the gate holds the io queue")
        let returned = expectation(description: "returned on the worker")
        let returnedEarly = expectation(description: "the store returned while the io queue was held")
        returnedEarly.isInverted = true
        DispatchQueue(label: "sdport.test.cache05.worker").async {
            calling.signal()
            cache.storeImageData(toDisk: Data([5, 4, 3]), forKey: "worker")
            order.mutate {
                $0.append(FileManager.default.fileExists(atPath: path) ? "returned, file there" : "returned, no file")
            }
            returnedEarly.fulfill()
            returned.fulfill()
        }
        XCTAssertEqual(calling.wait(timeout: .now() + 10), .success)
        // The call is under way; while the io queue is held it must neither return nor write.
        wait(for: [returnedEarly], timeout: 0.5)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "written while the io queue was held")
        gate.signal()
        wait(for: [returned], timeout: 10)
        XCTAssertEqual(order.value, ["gate opens, no file", "returned, file there"])
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data([5, 4, 3]))
    }

    /// Parity: CACHE-05 (a deliberate difference) — from the io queue itself the write runs at once; 4.4.8's
    /// `dispatch_sync` onto the queue it is already on would deadlock.
    func test_CACHE05_storeImageDataToDiskFromTheIOQueueWritesAtOnce() {
        let cache = self.cache!
        let existed = CACHELocked(false)
        cache.ioQueue.sync {
            XCTAssertTrue(cache.isOnIOQueue)
            cache.storeImageData(toDisk: Data([8]), forKey: "on-queue")
            existed.set(
                cache.defaultCachePath(forKey: "on-queue").map(FileManager.default.fileExists(atPath:)) ?? false)
        }
        XCTAssertTrue(existed.value, "written before the call returned, inside the io queue")
        XCTAssertFalse(cache.isOnIOQueue)
        XCTAssertTrue(cache.diskImageDataExists(withKey: "on-queue"))
    }

    /// Parity: CACHE-05 — a deleted cache directory is created again by the next write.
    func test_CACHE05_deletedDirectoryIsRecreated() throws {
        storeData(Data([1]), forKey: "first")
        try FileManager.default.removeItem(atPath: cache.diskCachePath)
        storeData(Data([2]), forKey: "second")
        XCTAssertEqual(cache.diskImageData(forKey: "second"), Data([2]))
        XCTAssertNil(cache.diskImageData(forKey: "first"))
    }

    /// Parity: CACHE-05 — writes are atomic: no temporary file is left, and overwriting replaces the whole file.
    func test_CACHE05_writesLeaveOnlyWholeFiles() {
        storeData(Data(repeating: 1, count: 100_000), forKey: "k")
        storeData(Data(repeating: 2, count: 10), forKey: "k")
        XCTAssertEqual(cache.diskImageData(forKey: "k"), Data(repeating: 2, count: 10))
        XCTAssertEqual(cacheDirectoryNames(), [SDImageCache.cachedFileName(forKey: "k")], "no temporary file remains")
    }
}
