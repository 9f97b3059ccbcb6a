import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// Looking images up: existence, memory and disk reads, read-only paths, the query operation (CACHE-06 … 09).
final class CACHE06_QueryTests: CACHETestCase {
    /// Parity: CACHE-06 — `diskImageExists` finds the file with its extension, and the old name without it;
    /// the answer arrives on the main queue.
    func test_CACHE06_diskImageExistsTriesBothNames() throws {
        storeData(Data([1]), forKey: "http://example.com/with.png")
        let bareKey = "http://example.com/legacy.jpg"
        let barePath = (try XCTUnwrap(cache.defaultCachePath(forKey: bareKey)) as NSString).deletingPathExtension
        XCTAssertTrue(FileManager.default.createFile(atPath: barePath, contents: Data([2])))

        for (key, expected) in [
            ("http://example.com/with.png", true), (bareKey, true), ("http://example.com/none.png", false),
        ] {
            let answered = expectation(description: key)
            cache.diskImageExists(withKey: key) { exists in
                XCTAssertTrue(Thread.isMainThread)
                XCTAssertEqual(exists, expected, key)
                answered.fulfill()
            }
            wait(for: [answered], timeout: 10)
            XCTAssertEqual(cache.diskImageDataExists(withKey: key), expected, key)
        }
        XCTAssertFalse(cache.diskImageDataExists(withKey: nil))
        XCTAssertEqual(cache.diskImageData(forKey: bareKey), Data([2]), "reads fall back to the name without extension")
    }

    /// Parity: CACHE-07 — memory, then disk: a disk read decodes, applies the @2x scale from the key,
    /// force-decodes per the config and fills the memory cache.
    func test_CACHE07_imageFromDiskDecodesScalesAndFillsMemory() throws {
        let key = "http://example.com/photo@2x.png"
        storeData(try TestFixtures.data("photo@2x.png"), forKey: key)
        cache.clearMemory()
        XCTAssertNil(cache.imageFromMemoryCache(forKey: key))

        let image = try XCTUnwrap(cache.imageFromDiskCache(forKey: key))
        XCTAssertEqual(image.pixelWidth, 20)
        XCTAssertEqual(image.scale, 2, "an @2x key gives scale 2")
        XCTAssertEqual(image.size.width, 10)
        XCTAssertTrue(image.sd_isDecoded, "shouldDecompressImages is on by default")
        XCTAssertTrue(cache.imageFromMemoryCache(forKey: key) === image, "a disk read fills the memory cache")

        cache.config.shouldDecompressImages = false
        cache.config.shouldCacheImagesInMemory = false
        cache.clearMemory()
        let plain = try XCTUnwrap(cache.imageFromDiskCache(forKey: key))
        XCTAssertFalse(plain.sd_isDecoded, "no force-decode when the config says so")
        XCTAssertNil(cache.imageFromMemoryCache(forKey: key), "no memory fill with the memory cache off")
    }

    /// Parity: CACHE-07 — `imageFromCache` returns the memory image when there is one, else the disk image.
    func test_CACHE07_imageFromCacheMemoryFirst() throws {
        let key = "http://example.com/rgba.png"
        storeData(try TestFixtures.data("rgba.png"), forKey: key, image: CACHETestImages.opaque(width: 1, height: 1))
        let memoryImage = try XCTUnwrap(cache.imageFromCache(forKey: key))
        XCTAssertEqual(memoryImage.pixelWidth, 1, "the memory image wins")
        cache.clearMemory()
        let diskImage = try XCTUnwrap(cache.imageFromCache(forKey: key))
        XCTAssertEqual(diskImage.pixelWidth, 32, "then the file is decoded")
        XCTAssertNil(cache.imageFromCache(forKey: "missing"))
        XCTAssertNil(cache.imageFromCache(forKey: nil))
    }

    /// Parity: CACHE-08 — the search order: the default path, the same without extension, then each read-only
    /// path the same way; read-only paths are never written.
    func test_CACHE08_readOnlyPathsAreSearchedInOrder() throws {
        let readOnlyA = directory.url.appendingPathComponent("bundleA").path
        let readOnlyB = directory.url.appendingPathComponent("bundleB").path
        for path in [readOnlyA, readOnlyB] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        cache.addReadOnlyCachePath(readOnlyA)
        cache.addReadOnlyCachePath(readOnlyB)
        cache.addReadOnlyCachePath(readOnlyA)
        XCTAssertEqual(cache.readOnlyCachePaths, [readOnlyA, readOnlyB], "a path is added once")

        let key = "http://example.com/shipped.png"
        let name = SDImageCache.cachedFileName(forKey: key)
        let bareName = (name as NSString).deletingPathExtension
        XCTAssertTrue(FileManager.default.createFile(atPath: readOnlyB + "/" + name, contents: Data("B".utf8)))
        XCTAssertEqual(cache.diskImageData(forKey: key), Data("B".utf8))
        XCTAssertTrue(FileManager.default.createFile(atPath: readOnlyA + "/" + bareName, contents: Data("A-bare".utf8)))
        XCTAssertEqual(
            cache.diskImageData(forKey: key), Data("A-bare".utf8), "an earlier path wins, even without extension")
        storeData(Data("own".utf8), forKey: key)
        XCTAssertEqual(cache.diskImageData(forKey: key), Data("own".utf8), "the cache's own directory comes first")

        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: readOnlyA), [bareName], "never written")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: readOnlyB), [name])
        XCTAssertNil(cache.diskImageData(forKey: nil))
    }

    /// Parity: CACHE-09 — a nil key: done(nil, nil, .none) at once, nil returned.
    func test_CACHE09_nilKeyAnswersAtOnce() {
        let answer = CACHELocked<SDImageCacheType?>(nil)
        let operation = cache.queryCacheOperation(forKey: nil) { image, data, type in
            XCTAssertNil(image)
            XCTAssertNil(data)
            answer.set(type)
        }
        XCTAssertNil(operation)
        XCTAssertEqual(answer.value, SDImageCacheType.none)
    }

    /// Parity: CACHE-09 — a memory hit: done(image, nil, .memory) synchronously, nil returned; with
    /// `.queryDataWhenInMemory` an operation is returned and the disk data comes along, asynchronously.
    func test_CACHE09_memoryHitIsSynchronous() {
        let image = CACHETestImages.opaque(width: 2, height: 2)
        cache.store(image, imageData: Data([4, 2]), forKey: "mem", toDisk: true, completion: nil)
        let answer = CACHELocked<SDImageCacheType?>(nil)
        let operation = cache.queryCacheOperation(forKey: "mem") { found, data, type in
            XCTAssertTrue(found === image)
            XCTAssertNil(data, "no disk read for a memory hit")
            answer.set(type)
        }
        XCTAssertNil(operation, "a memory hit returns no operation")
        XCTAssertEqual(answer.value, .memory, "done ran before the call returned")

        let withData = expectation(description: "memory hit with data")
        let dataOperation = cache.queryCacheOperation(forKey: "mem", options: .queryDataWhenInMemory) {
            found, data, type in
            XCTAssertTrue(Thread.isMainThread)
            XCTAssertTrue(found === image)
            XCTAssertEqual(data, Data([4, 2]))
            XCTAssertEqual(type, .memory)
            withData.fulfill()
        }
        XCTAssertNotNil(dataOperation)
        wait(for: [withData], timeout: 10)
    }

    /// Parity: CACHE-09 — a memory miss returns an operation and searches the disk on the io queue: a hit is
    /// decoded and reported as `.disk` with its data on the main queue, and fills memory; a miss is (nil, nil, .none).
    func test_CACHE09_diskHitAndMissAreAsynchronous() throws {
        let key = "http://example.com/baseline.jpg"
        let bytes = try TestFixtures.data("baseline.jpg")
        storeData(bytes, forKey: key)
        cache.clearMemory()

        let hit = expectation(description: "disk hit")
        let ranInline = CACHELocked(false)
        let operation = cache.queryCacheOperation(forKey: key) { image, data, type in
            XCTAssertTrue(Thread.isMainThread)
            XCTAssertEqual(type, .disk)
            XCTAssertEqual(data, bytes)
            XCTAssertEqual(image?.pixelWidth, 256)
            ranInline.set(true)
            hit.fulfill()
        }
        XCTAssertNotNil(operation)
        XCTAssertFalse(ranInline.value, "a disk search never answers before returning")
        wait(for: [hit], timeout: 10)
        XCTAssertNotNil(cache.imageFromMemoryCache(forKey: key), "the disk hit filled memory")

        let miss = expectation(description: "miss")
        cache.queryCacheOperation(forKey: "http://example.com/absent.jpg") { image, data, type in
            XCTAssertNil(image)
            XCTAssertNil(data)
            XCTAssertEqual(type, SDImageCacheType.none)
            miss.fulfill()
        }
        wait(for: [miss], timeout: 10)
    }

    /// Parity: CACHE-09 — `.queryDiskSync`: done runs before the call returns.
    func test_CACHE09_queryDiskSyncAnswersBeforeReturning() throws {
        let key = "http://example.com/rgba.png"
        storeData(try TestFixtures.data("rgba.png"), forKey: key)
        cache.clearMemory()
        let answer = CACHELocked<SDImageCacheType?>(nil)
        cache.queryCacheOperation(forKey: key, options: .queryDiskSync) { image, _, type in
            XCTAssertEqual(image?.pixelWidth, 32)
            answer.set(type)
        }
        XCTAssertEqual(answer.value, .disk)
    }

    /// Parity: CACHE-09 — `.queryDiskSync` searches on the calling thread, as 4.4.8 calls its disk block
    /// directly: with the io queue held busy, a query from another queue still answers, inside that queue and
    /// before the call returns, with the disk hit.
    func test_CACHE09_queryDiskSyncSearchesOnTheCallingThread() throws {
        let key = "http://example.com/sync-thread.png"
        let bytes = try TestFixtures.data("rgba.png")
        storeData(bytes, forKey: key)
        cache.clearMemory()
        let cache = self.cache!

        let gate = DispatchSemaphore(value: 0)
        cache.ioQueue.async { gate.wait() }
        defer { gate.signal() }

        let callerKey = DispatchSpecificKey<String>()
        let caller = DispatchQueue(label: "sdport.test.cache09.caller")
        caller.setSpecific(key: callerKey, value: "caller")
        let seen = CACHELocked<(queue: String?, onIOQueue: Bool, type: SDImageCacheType, data: Data?)?>(nil)
        let answeredBeforeReturn = CACHELocked(false)
        let done = expectation(description: "answered while the io queue is busy")
        caller.async {
            cache.queryCacheOperation(forKey: key, options: .queryDiskSync) { _, data, type in
                seen.set((DispatchQueue.getSpecific(key: callerKey), cache.isOnIOQueue, type, data))
            }
            answeredBeforeReturn.set(seen.value != nil)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertTrue(answeredBeforeReturn.value, "done ran before the call returned")
        XCTAssertEqual(seen.value?.queue, "caller", "the search and done ran on the caller's queue")
        XCTAssertEqual(seen.value?.onIOQueue, false)
        XCTAssertEqual(seen.value?.type, .disk)
        XCTAssertEqual(seen.value?.data, bytes)
        XCTAssertNotNil(cache.imageFromMemoryCache(forKey: key), "the disk hit filled memory")
    }

    /// Parity: CACHE-09 — a memory hit returns no disk data unless `.queryDataWhenInMemory`, for an animated
    /// image too (4.0–4.2 read the file of an animated image anyway; 4.4.8 does not): the GIF decoded from disk
    /// answers from memory with data nil, and with the option the same image comes with the file's bytes.
    func test_CACHE09_animatedMemoryHitReturnsDataOnlyWithTheOption() throws {
        let key = "http://example.com/animated.gif"
        let bytes = try TestFixtures.data("animated.gif")
        let animated = try SDWebImageGIFCoder.shared.decodeImage(from: bytes)
        XCTAssertGreaterThan(animated.images?.count ?? 0, 1, "the fixture decodes to an animated image")
        let stored = expectation(description: "stored")
        cache.store(animated, imageData: bytes, forKey: key, toDisk: true) { stored.fulfill() }
        wait(for: [stored], timeout: 10)

        let plain = CACHELocked<(image: UIImage?, data: Data?, type: SDImageCacheType)?>(nil)
        let operation = cache.queryCacheOperation(forKey: key) { image, data, type in plain.set((image, data, type)) }
        XCTAssertNil(operation, "a memory hit answers at once")
        XCTAssertTrue(plain.value?.image === animated)
        XCTAssertEqual(plain.value?.type, .memory)
        XCTAssertNil(plain.value?.data, "no disk data for an animated memory hit without the option")

        let withData = expectation(description: "memory hit with data")
        cache.queryCacheOperation(forKey: key, options: .queryDataWhenInMemory) { image, data, type in
            XCTAssertTrue(image === animated)
            XCTAssertEqual(type, .memory)
            XCTAssertEqual(data, bytes, "the option brings the file's bytes")
            withData.fulfill()
        }
        wait(for: [withData], timeout: 10)
    }

    /// Parity: CACHE-09 — an operation cancelled before its disk search starts never calls done.
    func test_CACHE09_cancelledQueryNeverCallsDone() {
        storeData(Data([1, 2, 3]), forKey: "c")
        cache.clearMemory()
        let gate = DispatchSemaphore(value: 0)
        cache.ioQueue.async { gate.wait() }
        let called = CACHELocked(false)
        let operation = cache.queryCacheOperation(forKey: "c") { _, _, _ in called.set(true) }
        operation?.cancel()
        gate.signal()
        drainQueues()
        XCTAssertFalse(called.value)
    }

    /// Parity: CACHE-16 — a disk file that does not decode answers (nil image, its data, `.disk`), as 4.4.8 sets
    /// the type once the file is read (`SDImageCache.m:539-547`); nothing goes into memory, and the synchronous
    /// disk read gives no image.
    func test_CACHE16_undecodableFileAnswersItsDataAsDisk() throws {
        let key = "http://example.com/corrupt.jpg"
        let bytes = try TestFixtures.data("corrupt.jpg")
        storeData(bytes, forKey: key)
        cache.clearMemory()
        let answered = expectation(description: "answered")
        cache.queryCacheOperation(forKey: key) { image, data, type in
            XCTAssertNil(image)
            XCTAssertEqual(data, bytes)
            XCTAssertEqual(type, SDImageCacheType.disk)
            answered.fulfill()
        }
        wait(for: [answered], timeout: 10)
        let sync = CACHELocked<SDImageCacheType?>(nil)
        cache.queryCacheOperation(forKey: key, options: .queryDiskSync) { image, data, type in
            XCTAssertNil(image)
            XCTAssertEqual(data, bytes)
            sync.set(type)
        }
        XCTAssertEqual(sync.value, .disk, "the synchronous query answers the same")
        XCTAssertNil(cache.imageFromDiskCache(forKey: key))
        XCTAssertNil(cache.imageFromMemoryCache(forKey: key))
    }

    /// Parity: CACHE-07 — `.scaleDownLargeImages` reaches the decompressor: a 5250×3450 file comes back smaller.
    func test_CACHE07_scaleDownLargeImagesOption() throws {
        let key = "http://example.com/large.png"
        cache.storeImageData(toDisk: try TestFixtures.data("large.png"), forKey: key)
        let answer = CACHELocked<UIImage?>(nil)
        cache.queryCacheOperation(forKey: key, options: [.queryDiskSync, .scaleDownLargeImages]) { image, _, type in
            XCTAssertEqual(type, .disk)
            answer.set(image)
        }
        let image = try XCTUnwrap(answer.value)
        XCTAssertLessThan(image.pixelWidth, 5250)
        XCTAssertLessThan(image.pixelWidth * image.pixelHeight, 5250 * 3450)
    }

    /// Parity: CACHE-08 — with `diskCacheReadingOptions` set, reads go through Foundation with those options and
    /// return the same bytes.
    func test_CACHE08_readingOptionsAreHonoured() {
        storeData(Data((0..<4_096).map { UInt8($0 % 256) }), forKey: "mapped")
        cache.config.diskCacheReadingOptions = .mappedIfSafe
        XCTAssertEqual(cache.diskImageData(forKey: "mapped"), Data((0..<4_096).map { UInt8($0 % 256) }))
        XCTAssertNil(cache.diskImageData(forKey: "absent"))
    }
}
