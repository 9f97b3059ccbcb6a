import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// Proves FAQ-06 (the cache side): the card is `Docs/knowledge/faq/FAQ-06.json` (question, answer, citations; `sdport
/// faq 6` prints it).
///
/// Stores images in a cache in a temporary directory with and without `toDisk`, with `shouldCacheImagesInMemory` off,
/// and without data, and checks what memory and the disk hold afterwards; reads a file back from disk and checks that
/// memory then has it.
final class FAQ06_CacheSideTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var cache: SDImageCache!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "sdport-faq06")
        cache = SDImageCache(namespace: "faq06", diskCacheDirectory: directory.path)
    }

    override func tearDown() {
        cache = nil
        directory.remove()
    }

    private func store(_ key: String, toDisk: Bool) {
        let image = UIImage(pixelWidth: 1, pixelHeight: 1, pixels: [9, 9, 9, 255], hasAlpha: false)
        let stored = expectation(description: "stored")
        cache.store(image, imageData: Data([1, 2, 3]), forKey: key, toDisk: toDisk) { stored.fulfill() }
        wait(for: [stored], timeout: 10)
    }

    /// Parity: FAQ-06 — memory and disk by default; memory only when not to disk.
    func test_FAQ06_memoryAlwaysDiskUnlessMemoryOnly() {
        store("both", toDisk: true)
        XCTAssertNotNil(cache.imageFromMemoryCache(forKey: "both"))
        XCTAssertTrue(cache.diskImageDataExists(withKey: "both"))

        store("memory-only", toDisk: false)
        XCTAssertNotNil(cache.imageFromMemoryCache(forKey: "memory-only"))
        XCTAssertFalse(cache.diskImageDataExists(withKey: "memory-only"))
    }

    /// Parity: FAQ-06 — with `shouldCacheImagesInMemory` off, nothing goes to memory, not even from a disk hit.
    func test_FAQ06_memoryCacheCanBeSwitchedOff() throws {
        cache.config.shouldCacheImagesInMemory = false
        store("disk-only", toDisk: true)
        XCTAssertNil(cache.imageFromMemoryCache(forKey: "disk-only"))
        XCTAssertTrue(cache.diskImageDataExists(withKey: "disk-only"))
        cache.storeImageData(toDisk: try TestFixtures.data("rgba.png"), forKey: "png")
        XCTAssertNotNil(cache.imageFromDiskCache(forKey: "png"))
        XCTAssertNil(cache.imageFromMemoryCache(forKey: "png"))
    }

    /// Parity: FAQ-06 — a disk hit fills the memory cache.
    func test_FAQ06_diskHitFillsMemory() throws {
        let key = "http://example.com/rgba.png"
        cache.storeImageData(toDisk: try TestFixtures.data("rgba.png"), forKey: key)
        XCTAssertNil(cache.imageFromMemoryCache(forKey: key))
        let answered = expectation(description: "disk hit")
        cache.queryCacheOperation(forKey: key) { image, _, type in
            XCTAssertEqual(type, .disk)
            XCTAssertNotNil(image)
            answered.fulfill()
        }
        wait(for: [answered], timeout: 10)
        XCTAssertNotNil(cache.imageFromMemoryCache(forKey: key))
    }

    /// Parity: FAQ-06 — without data the image is encoded before it is written (PNG here: it has alpha).
    func test_FAQ06_imageWithoutDataIsEncoded() throws {
        let image = UIImage(pixelWidth: 2, pixelHeight: 1, pixels: [255, 0, 0, 255, 0, 0, 255, 0], hasAlpha: true)
        let stored = expectation(description: "stored")
        cache.store(image, forKey: "encoded") { stored.fulfill() }
        wait(for: [stored], timeout: 10)
        XCTAssertEqual(Data.sd_imageFormat(forImageData: cache.diskImageData(forKey: "encoded")), .png)
    }
}
