import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// Removing, clearing, the cleanup and the statistics (CACHE-10 … 12).
final class CACHE10_RemoveAndCleanupTests: CACHETestCase {
    /// Parity: CACHE-10 — a nil key returns without ever calling the completion.
    func test_CACHE10_nilKeyNeverCompletes() {
        let called = CACHELocked(false)
        cache.removeImage(forKey: nil, withCompletion: { called.set(true) })
        cache.removeImage(forKey: nil, fromDisk: false, withCompletion: { called.set(true) })
        drainQueues()
        XCTAssertFalse(called.value)
    }

    /// Parity: CACHE-10 — memory goes at once, the file asynchronously, then the completion on the main queue;
    /// without `fromDisk` the file stays and the completion runs at once.
    func test_CACHE10_removeFromMemoryThenDisk() {
        storeData(Data([1]), forKey: "gone.png")
        storeData(Data([2]), forKey: "kept.png")

        let removed = expectation(description: "removed")
        cache.removeImage(forKey: "gone.png") {
            XCTAssertTrue(Thread.isMainThread)
            removed.fulfill()
        }
        XCTAssertNil(cache.imageFromMemoryCache(forKey: "gone.png"), "memory is cleared synchronously")
        wait(for: [removed], timeout: 10)
        XCTAssertFalse(cache.diskImageDataExists(withKey: "gone.png"))

        let calls = CACHELocked(0)
        cache.removeImage(forKey: "kept.png", fromDisk: false) { calls.mutate { $0 += 1 } }
        XCTAssertEqual(calls.value, 1, "memory-only removal completes at once")
        XCTAssertNil(cache.imageFromMemoryCache(forKey: "kept.png"))
        XCTAssertTrue(cache.diskImageDataExists(withKey: "kept.png"))
    }

    /// Parity: CACHE-10 — the port also deletes the legacy name without extension, so a removed key is not
    /// found again through the read fallback.
    func test_CACHE10_removeAlsoDeletesTheNameWithoutExtension() throws {
        let key = "http://example.com/legacy.gif"
        let barePath = (try XCTUnwrap(cache.defaultCachePath(forKey: key)) as NSString).deletingPathExtension
        storeData(Data([1]), forKey: key)
        XCTAssertTrue(FileManager.default.createFile(atPath: barePath, contents: Data([2])))
        let removed = expectation(description: "removed")
        cache.removeImage(forKey: key) { removed.fulfill() }
        wait(for: [removed], timeout: 10)
        XCTAssertNil(cache.diskImageData(forKey: key))
        XCTAssertEqual(cacheDirectoryNames(), [])
    }

    /// Parity: CACHE-11 — clearMemory empties memory only; clearDisk removes the directory and creates it again.
    func test_CACHE11_clearMemoryAndClearDisk() throws {
        storeData(Data([1]), forKey: "a")
        storeData(Data([2]), forKey: "b")
        try FileManager.default.createDirectory(atPath: cache.diskCachePath + "/sub", withIntermediateDirectories: true)
        cache.clearMemory()
        XCTAssertNil(cache.imageFromMemoryCache(forKey: "a"))
        XCTAssertTrue(cache.diskImageDataExists(withKey: "a"))

        let cleared = expectation(description: "cleared")
        cache.clearDisk {
            XCTAssertTrue(Thread.isMainThread)
            cleared.fulfill()
        }
        wait(for: [cleared], timeout: 10)
        var isDirectory: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache.diskCachePath, isDirectory: &isDirectory))
        XCTAssertTrue(isDirectory.boolValue, "the directory is recreated")
        XCTAssertEqual(cacheDirectoryNames(), [])
    }

    /// Parity: CACHE-11 — deleteOldFiles deletes files older than maxCacheAge, in subdirectories too, but skips
    /// directories and hidden files; the completion runs on the main queue.
    func test_CACHE11_deleteOldFilesSkipsDirectoriesAndHiddenFiles() throws {
        let old = Date(timeIntervalSinceNow: -8 * 24 * 3600)
        storeData(Data([1]), forKey: "old")
        storeData(Data([2]), forKey: "new")
        let root = cache.diskCachePath
        try setDate(old, ofFileAt: try XCTUnwrap(cache.defaultCachePath(forKey: "old")))
        XCTAssertTrue(FileManager.default.createFile(atPath: root + "/.hidden", contents: Data([3])))
        try setDate(old, ofFileAt: root + "/.hidden")
        try FileManager.default.createDirectory(atPath: root + "/olddir", withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: root + "/olddir/inner", contents: Data([4])))
        try setDate(old, ofFileAt: root + "/olddir/inner")
        try setDate(old, ofFileAt: root + "/olddir")

        let cleaned = expectation(description: "cleaned")
        cache.deleteOldFiles {
            XCTAssertTrue(Thread.isMainThread)
            cleaned.fulfill()
        }
        wait(for: [cleaned], timeout: 10)
        XCTAssertFalse(cache.diskImageDataExists(withKey: "old"))
        XCTAssertTrue(cache.diskImageDataExists(withKey: "new"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/.hidden"), "hidden files are skipped")
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/olddir"), "directories are skipped")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/olddir/inner"), "files in subdirectories count")
    }

    /// Parity: CACHE-11 — a temporary file abandoned by a crash mid-write is never read as an image, is not
    /// counted, and goes at the next cleanup once an hour old.
    func test_CACHE11_abandonedTemporaryFileIsIgnoredThenCleaned() throws {
        storeData(Data([1]), forKey: "real")
        let leftover = cache.diskCachePath + "/.sdport-tmp-" + SDImageCache.cachedFileName(forKey: "half") + "-x"
        XCTAssertTrue(FileManager.default.createFile(atPath: leftover, contents: Data(repeating: 0xFF, count: 10)))
        XCTAssertNil(cache.diskImageData(forKey: "half"))
        let counted = expectation(description: "counted")
        cache.calculateSize { count, _ in
            XCTAssertEqual(count, 1, "hidden temporary files are not cache files")
            counted.fulfill()
        }
        wait(for: [counted], timeout: 10)

        let cleaned = expectation(description: "fresh leftover kept")
        cache.deleteOldFiles { cleaned.fulfill() }
        wait(for: [cleaned], timeout: 10)
        XCTAssertTrue(FileManager.default.fileExists(atPath: leftover), "a fresh one may be another process's write")

        try setDate(Date(timeIntervalSinceNow: -2 * 3600), ofFileAt: leftover)
        let cleanedAgain = expectation(description: "old leftover removed")
        cache.deleteOldFiles { cleanedAgain.fulfill() }
        wait(for: [cleanedAgain], timeout: 10)
        XCTAssertFalse(FileManager.default.fileExists(atPath: leftover))
        XCTAssertTrue(cache.diskImageDataExists(withKey: "real"))
    }

    /// Parity: CACHE-12 — in a directory of files only: getSize sums their sizes and getDiskCount counts them,
    /// synchronously; calculateSize gives both on the main queue.
    func test_CACHE12_sizeAndCount() {
        XCTAssertEqual(cache.getSize(), 0, "a cache never written has nothing")
        XCTAssertEqual(cache.getDiskCount(), 0)
        storeData(Data(count: 1_000), forKey: "a")
        storeData(Data(count: 2_500), forKey: "b")
        storeData(Data(count: 1), forKey: "c")
        XCTAssertEqual(cache.getSize(), 3_501)
        XCTAssertEqual(cache.getDiskCount(), 3)
        let calculated = expectation(description: "calculated")
        cache.calculateSize { count, size in
            XCTAssertTrue(Thread.isMainThread)
            XCTAssertEqual(count, 3)
            XCTAssertEqual(size, 3_501)
            calculated.fulfill()
        }
        wait(for: [calculated], timeout: 10)
    }

    /// Parity: CACHE-12 — the three statistics list entries as 4.4.8's directory enumerators do: `getDiskCount`
    /// counts every entry (sub-directories, their files, hidden entries); `getSize` adds every entry's own size, a
    /// directory's included; `calculateSize` skips hidden entries (a hidden directory is not entered), counts a
    /// visible sub-directory and its file, and adds file sizes only.
    func test_CACHE12_statisticsCountSubdirectoriesAsTheEnumeratorsDo() throws {
        storeData(Data(count: 1_000), forKey: "a")
        storeData(Data(count: 2_500), forKey: "b")
        let root = cache.diskCachePath
        let manager = FileManager.default
        try manager.createDirectory(atPath: root + "/sub", withIntermediateDirectories: false)
        XCTAssertTrue(manager.createFile(atPath: root + "/sub/inner", contents: Data(count: 10)))
        XCTAssertTrue(manager.createFile(atPath: root + "/.hidden", contents: Data(count: 5)))
        try manager.createDirectory(atPath: root + "/.hdir", withIntermediateDirectories: false)
        XCTAssertTrue(manager.createFile(atPath: root + "/.hdir/x", contents: Data(count: 7)))
        func ownSize(_ path: String) throws -> UInt {
            var info = stat()
            XCTAssertEqual(lstat(path, &info), 0)
            return UInt(info.st_size)
        }
        let subSize = try ownSize(root + "/sub")
        let hiddenDirSize = try ownSize(root + "/.hdir")

        XCTAssertEqual(cache.getDiskCount(), 7, "a, b, sub, sub/inner, .hidden, .hdir, .hdir/x")
        XCTAssertEqual(cache.getSize(), 1_000 + 2_500 + 10 + 5 + 7 + subSize + hiddenDirSize)
        let calculated = expectation(description: "calculated")
        cache.calculateSize { count, size in
            XCTAssertEqual(count, 4, "a, b, sub, sub/inner")
            XCTAssertEqual(size, 1_000 + 2_500 + 10, "a directory adds nothing to the size")
            calculated.fulfill()
        }
        wait(for: [calculated], timeout: 10)
    }

    /// Parity: CACHE-12 — the size pass counts blocks on disk (`st_blocks * 512`), not bytes: ten 1-byte files
    /// take one block each, so a limit of five blocks triggers the pass (bytes never would) and it keeps the two
    /// newest files (below half the limit).
    func test_CACHE12_cleanupSizeIsBlocksOnDisk() throws {
        for i in 0..<10 {
            storeData(Data([UInt8(i)]), forKey: "f\(i)")
            try setDate(
                Date(timeIntervalSinceNow: TimeInterval(-1000 + i * 10)),
                ofFileAt: try XCTUnwrap(cache.defaultCachePath(forKey: "f\(i)")))
        }
        let block = allocatedSize(ofFileAt: try XCTUnwrap(cache.defaultCachePath(forKey: "f0")))
        XCTAssertGreaterThan(block, 1, "a 1-byte file takes at least one block")
        cache.config.maxCacheSize = UInt(block * 5)
        let cleaned = expectation(description: "cleaned")
        cache.deleteOldFiles { cleaned.fulfill() }
        wait(for: [cleaned], timeout: 10)
        XCTAssertEqual(cacheDirectoryNames(), ["f8", "f9"].map { SDImageCache.cachedFileName(forKey: $0) }.sorted())
    }

    /// Parity: CACHE-11 — with `diskCacheExpireType = .accessDate` (4.4.2+) the cleanup looks at the last read,
    /// not the last write.
    func test_CACHE11_expireByAccessDate() throws {
        storeData(Data([1]), forKey: "read-long-ago")
        storeData(Data([2]), forKey: "read-recently")
        let monthAgo = Int(Date().timeIntervalSince1970) - 30 * 24 * 3600
        let now = Int(Date().timeIntervalSince1970)
        // Old access date, fresh modification date — and the reverse.
        for (key, access, modification) in [("read-long-ago", monthAgo, now), ("read-recently", now, monthAgo)] {
            var times = [timespec(tv_sec: access, tv_nsec: 0), timespec(tv_sec: modification, tv_nsec: 0)]
            XCTAssertEqual(utimensat(AT_FDCWD, try XCTUnwrap(cache.defaultCachePath(forKey: key)), &times, 0), 0)
        }
        cache.config.diskCacheExpireType = .accessDate
        let cleaned = expectation(description: "cleaned")
        cache.deleteOldFiles { cleaned.fulfill() }
        wait(for: [cleaned], timeout: 10)
        XCTAssertFalse(cache.diskImageDataExists(withKey: "read-long-ago"))
        XCTAssertTrue(cache.diskImageDataExists(withKey: "read-recently"), "its old modification date does not count")
    }
}
