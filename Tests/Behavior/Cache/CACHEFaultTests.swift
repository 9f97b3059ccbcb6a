import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// Bad input and faults: weird keys, unusable directories, many threads at once.
final class CACHEFaultTests: CACHETestCase {
    /// Keys that try to escape the directory, contain NUL, are 10 000 characters long, have huge or odd
    /// extensions: each becomes one file directly inside the cache directory, named by its hash, and reads back.
    func test_CACHE05_weirdKeysStayInsideTheCacheDirectory() throws {
        let keys = [
            "../../../../tmp/escape.png", "/etc/passwd", "..", ".", "", "a\u{0}b.png", "http://x.com/a.p%00ng",
            "http://x.com/a.p%2Fng", String(repeating: "k", count: 10_000),
            "http://x.com/f." + String(repeating: "e", count: 300),
            "http://x.com/f." + String(repeating: "é", count: 150),
            "ключ/изображение.jpg", "key with spaces & symbols?#.gif", "weird:key.webp", "\n\t\r",
        ]
        for (index, key) in keys.enumerated() {
            storeData(Data([UInt8(index)]), forKey: key)
        }
        let names = cacheDirectoryNames()
        XCTAssertEqual(names.count, keys.count, "one file per key")
        for name in names {
            XCTAssertTrue(name.range(of: "^[0-9a-f]{32}(\\.[^/\\x00]+)?$", options: .regularExpression) != nil, name)
            XCTAssertLessThanOrEqual(name.utf8.count, 255)
        }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.path), ["com.hackemist.SDWebImageCache.test"],
            "nothing was written beside the cache directory")
        for (index, key) in keys.enumerated() {
            XCTAssertEqual(cache.diskImageData(forKey: key), Data([UInt8(index)]), key.debugDescription)
        }
        XCTAssertNotEqual(
            SDImageCache.cachedFileName(forKey: "a\u{0}b.png"), SDImageCache.cachedFileName(forKey: "a"),
            "the whole key is hashed, NUL included")
    }

    /// A "/" or NUL followed by a combining mark is one Character that is not equal to "/" or NUL: removing
    /// those by Character left a "/" in the file name, so the name was no longer one path component. Found by the
    /// `cachename` fuzz harness (`Fixtures/fuzz/cachename-slash-with-combining-mark.key`, read as UTF-8 and as
    /// Latin-1 as the harness does).
    func test_CACHE05_slashOrNULWithACombiningMarkNeverReachesTheFileName() throws {
        let fuzzed = try TestFixtures.data("fuzz/cachename-slash-with-combining-mark.key")
        let keys = [
            String(decoding: fuzzed, as: UTF8.self), String(fuzzed.map { Character(Unicode.Scalar($0)) }),
            "http://x.com/a.p/\u{650}ng", "http://x.com/a.p\u{0}\u{301}ng", "a b.e/\u{301}/../../x",
        ]
        for (index, key) in keys.enumerated() {
            let name = SDImageCache.cachedFileName(forKey: key)
            XCTAssertFalse(name.utf8.contains(UInt8(ascii: "/")) || name.utf8.contains(0), name.debugDescription)
            storeData(Data([UInt8(index)]), forKey: key)
            XCTAssertEqual(cache.diskImageData(forKey: key), Data([UInt8(index)]), key.debugDescription)
        }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.path), ["com.hackemist.SDWebImageCache.test"],
            "nothing was written beside the cache directory")
    }

    /// Keys that are no URL and hold "//" before a non-ASCII character ("a//é"): Foundation's
    /// `NSString.pathExtension` traps on them, and `cachedFileName(forKey:)` used it. Found by the `cachename`
    /// fuzz harness; its input is kept as `Fixtures/fuzz/cachename-double-slash-non-ascii.key` and read here both
    /// ways the harness reads it (UTF-8, and Latin-1). Each key gets a name and stores and reads back.
    func test_CACHE05_keysThatTrapFoundationsPathExtensionGetAName() throws {
        let fuzzed = try TestFixtures.data("fuzz/cachename-double-slash-non-ascii.key")
        let keys = [
            String(decoding: fuzzed, as: UTF8.self), String(fuzzed.map { Character(Unicode.Scalar($0)) }),
            "a//é", "a//é.png", "x//图片", "http://\u{FFFD}",
        ]
        for (index, key) in keys.enumerated() {
            let name = SDImageCache.cachedFileName(forKey: key)
            XCTAssertTrue(name.range(of: "^[0-9a-f]{32}(\\.[^/\\x00]+)?$", options: .regularExpression) != nil, name)
            storeData(Data([UInt8(index)]), forKey: key)
            XCTAssertEqual(cache.diskImageData(forKey: key), Data([UInt8(index)]), key.debugDescription)
        }
        XCTAssertTrue(SDImageCache.cachedFileName(forKey: "a//é.png").hasSuffix(".png"), "the extension is kept")
    }

    /// A cache directory that cannot exist (its parent is a regular file): stores do not crash and still
    /// complete, the memory cache still works, the throwing write reports a clear error, nothing is written.
    func test_CACHE05_unusableDirectoryGivesAClearError() throws {
        let blocker = directory.url.appendingPathComponent("not-a-directory").path
        XCTAssertTrue(FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8)))
        let broken = SDImageCache(namespace: "broken", diskCacheDirectory: blocker)
        let image = CACHETestImages.opaque(width: 2, height: 2)
        storeData(Data([1, 2, 3]), forKey: "k", image: image, in: broken)
        XCTAssertTrue(broken.imageFromMemoryCache(forKey: "k") === image, "memory is unaffected")
        XCTAssertNil(broken.diskImageData(forKey: "k"))

        XCTAssertThrowsError(try broken.writeImageDataToDisk(Data([1]), forKey: "k")) { error in
            guard let cacheError = error as? SDImageCacheError else { return XCTFail("unexpected \(error)") }
            let description = cacheError.localizedDescription
            XCTAssertTrue(description.contains(broken.diskCachePath), description)
            XCTAssertTrue(description.contains("Not a directory"), description)
            XCTAssertEqual((error as NSError).domain, SDWebImageErrorDomain)
        }
        let calculated = expectation(description: "cleanup of a missing directory")
        broken.deleteOldFiles { calculated.fulfill() }
        wait(for: [calculated], timeout: 10)
        XCTAssertEqual(broken.getSize(), 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["not-a-directory"])
    }

    /// A read-only cache directory: the write fails cleanly and leaves no temporary file. Root ignores
    /// permission bits, so as root the directory is handed to `nobody` and the write runs with the thread's
    /// file-system user switched to `nobody` (`setfsuid`, which also drops CAP_DAC_OVERRIDE from that thread
    /// only): the kernel then checks the 0555 bits as it would for an ordinary user. `writeImageDataToDisk` runs
    /// on the calling thread (`dispatch_sync` on a serial queue does), so the switch covers the write.
    func test_CACHE05_readOnlyDirectoryFailsCleanly() throws {
        storeData(Data([1]), forKey: "before")
        let unprivileged: uid_t = 65534  // nobody
        if geteuid() == 0 {
            XCTAssertEqual(
                chown(cache.diskCachePath, unprivileged, gid_t(unprivileged)), 0, String(cString: strerror(errno)))
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: cache.diskCachePath)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: cache.diskCachePath) }
        let result = try FileSystemUser.whileUnprivileged(as: unprivileged) {
            Result { try cache.writeImageDataToDisk(Data([2]), forKey: "after") }
        }
        XCTAssertThrowsError(try result.get()) { error in
            XCTAssertTrue(error.localizedDescription.contains("Permission denied"), error.localizedDescription)
        }
        XCTAssertEqual(cacheDirectoryNames(), [SDImageCache.cachedFileName(forKey: "before")])
    }

    /// Parity: CACHE-05 — a full disk. The file-size limit (RLIMIT_FSIZE) makes the kernel refuse writes past
    /// 4 KB with EFBIG, as a full file system refuses them with ENOSPC: the write reports the error, no file
    /// appears under the cache name, no temporary file is left, and what was stored before is untouched.
    func test_CACHE05_fullDiskLeavesNoHalfWrittenFile() throws {
        storeData(Data([1, 2, 3]), forKey: "before")
        var saved = rlimit()
        XCTAssertEqual(getrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved), 0)
        var limited = saved
        limited.rlim_cur = 4096
        // The limit covers the whole process: nothing may be asserted (and so printed) until it is restored.
        let previousHandler = signal(SIGXFSZ, SIG_IGN)  // otherwise the kernel ends the process at the limit
        XCTAssertEqual(setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limited), 0)
        let result = Result { try cache.writeImageDataToDisk(Data(repeating: 7, count: 100_000), forKey: "big") }
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
        signal(SIGXFSZ, previousHandler)

        XCTAssertThrowsError(try result.get()) { error in
            XCTAssertTrue(error.localizedDescription.contains("File too large"), error.localizedDescription)
        }
        let everything = try FileManager.default.contentsOfDirectory(atPath: cache.diskCachePath)
        XCTAssertEqual(everything, [SDImageCache.cachedFileName(forKey: "before")], "no partial or temporary file")
        XCTAssertEqual(cache.diskImageData(forKey: "before"), Data([1, 2, 3]))
        XCTAssertNil(cache.diskImageData(forKey: "big"))
    }

    /// Many threads storing, querying and removing the same few keys at once: no crash, every answer is whole
    /// (data read back is one of the payloads written for that key), and the cache is consistent afterwards.
    func test_CACHE11_concurrentStoreQueryRemove() {
        let cache = self.cache!
        cache.completionQueue = DispatchQueue(label: "sdport.test.cache.stress.completions")
        let keys = (0..<6).map { "http://example.com/stress\($0).png" }
        @Sendable func payload(_ key: Int, _ version: Int) -> Data {
            Data(repeating: UInt8(key * 16 + version % 16), count: 2_000 + key)
        }
        let finished = expectation(description: "stress finished")
        let pendingCallbacks = DispatchGroup()
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: 6) { worker in
                for i in 0..<150 {
                    let k = (worker + i) % keys.count
                    switch (worker + i) % 5 {
                    case 0, 1:
                        pendingCallbacks.enter()
                        cache.store(
                            CACHETestImages.opaque(width: 1, height: 1), imageData: payload(k, i), forKey: keys[k],
                            toDisk: true
                        ) { pendingCallbacks.leave() }
                    case 2:
                        if let data = cache.diskImageData(forKey: keys[k]) {
                            XCTAssertEqual(data.count, 2_000 + k, "a read sees a whole file")
                            XCTAssertEqual(Set(data).count, 1)
                        }
                    case 3:
                        pendingCallbacks.enter()
                        cache.queryCacheOperation(forKey: keys[k], options: .queryDataWhenInMemory) { _, data, _ in
                            if let data { XCTAssertEqual(data.count, 2_000 + k) }
                            pendingCallbacks.leave()
                        }
                    default:
                        pendingCallbacks.enter()
                        cache.removeImage(forKey: keys[k], fromDisk: i % 2 == 0) { pendingCallbacks.leave() }
                    }
                }
            }
            pendingCallbacks.notify(queue: .global()) { finished.fulfill() }
        }
        wait(for: [finished], timeout: 120)
        XCTAssertLessThanOrEqual(cache.getDiskCount(), UInt(keys.count))
        XCTAssertFalse(cacheDirectoryNames().contains { $0.hasPrefix(".") }, "no temporary file is left")
        for (k, key) in keys.enumerated() {
            if let data = cache.diskImageData(forKey: key) { XCTAssertEqual(data.count, 2_000 + k) }
        }
    }
}
