import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// Proves FAQ-06 (the manager side): the card is `Docs/knowledge/faq/FAQ-06.json` (question, answer, citations; `sdport
/// faq 6` prints it).
///
/// Loads images through a manager on a loopback server and a temporary cache — plain, with `cacheMemoryOnly`, with
/// memory caching off, a failing download, a delegate that transforms the image, and a disk hit — and checks what
/// memory and the disk hold, byte for byte where the downloaded bytes must be kept.
final class FAQ06_ManagerSideCachingTests: XCTestCase {
    private var env: ManagerTestEnvironment!

    override func setUpWithError() throws { env = try ManagerTestEnvironment() }
    override func tearDown() {
        env.tearDown()
        env = nil
    }

    /// Parity: FAQ-06 — a finished download is stored in memory and on disk with the downloaded bytes (no
    /// `cacheSerializer` is set; 4.4.8 stores what a serializer returns instead).
    func test_FAQ06_downloadIsStoredInMemoryAndOnDiskWithItsBytes() throws {
        let url = try env.serveFixture("baseline.jpg")
        XCTAssertNotNil(env.load(url).calls.last?.image)
        XCTAssertNotNil(env.cache.imageFromMemoryCache(forKey: url.absoluteString))
        XCTAssertEqual(env.diskImageExists(forKey: url.absoluteString), true)
        XCTAssertEqual(env.cache.diskImageData(forKey: url.absoluteString), try TestFixtures.data("baseline.jpg"))
    }

    /// Parity: FAQ-06 — CacheMemoryOnly keeps the image off the disk.
    func test_FAQ06_cacheMemoryOnlySkipsTheDisk() throws {
        let url = try env.serveFixture("baseline.jpg")
        XCTAssertNotNil(env.load(url, options: .cacheMemoryOnly).calls.last?.image)
        XCTAssertNotNil(env.cache.imageFromMemoryCache(forKey: url.absoluteString))
        XCTAssertEqual(env.diskImageExists(forKey: url.absoluteString), false)
    }

    /// Parity: FAQ-06 — with memory caching off in the cache's config, only the disk gets it.
    func test_FAQ06_memoryCachingOffStoresOnDiskOnly() throws {
        env.cache.config.shouldCacheImagesInMemory = false
        let url = try env.serveFixture("baseline.jpg")
        XCTAssertNotNil(env.load(url).calls.last?.image)
        XCTAssertNil(env.cache.imageFromMemoryCache(forKey: url.absoluteString))
        XCTAssertEqual(env.diskImageExists(forKey: url.absoluteString), true)
    }

    /// Parity: FAQ-06 — a failed download stores nothing.
    func test_FAQ06_failedDownloadStoresNothing() throws {
        let url = try env.serveFixture("corrupt.jpg")
        XCTAssertNotNil(env.load(url).calls.last?.error)
        XCTAssertNil(env.cache.imageFromMemoryCache(forKey: url.absoluteString))
        XCTAssertEqual(env.diskImageExists(forKey: url.absoluteString), false)
    }

    /// Parity: FAQ-06 — a transformed image is what gets stored, encoded again from its own pixels (4.4.8 keeps
    /// the downloaded bytes when the delegate returns an equal image, and asks a `cacheSerializer` when one is set).
    func test_FAQ06_transformedImageIsStoredReencoded() throws {
        let delegate = ManagerTransformingTestDelegate()
        delegate.transform = { image in
            guard let image else { return nil }
            return UIImage(
                pixelWidth: 1, pixelHeight: 1, pixels: [10, 20, 30, 255], hasAlpha: false,
                format: image.sd_imageFormat)
        }
        env.manager.delegate = delegate
        let url = try env.serveFixture("baseline.jpg")
        XCTAssertEqual(env.load(url).calls.last?.image?.pixelWidth, 1)
        XCTAssertEqual(env.cache.imageFromMemoryCache(forKey: url.absoluteString)?.pixelWidth, 1)
        XCTAssertEqual(env.diskImageExists(forKey: url.absoluteString), true)
        env.cache.clearMemory()
        XCTAssertEqual(
            env.cache.imageFromDiskCache(forKey: url.absoluteString)?.pixelWidth, 1,
            "the disk holds the transformed image, not the downloaded bytes")
    }

    /// Parity: FAQ-06 — a disk hit through the manager fills the memory cache.
    func test_FAQ06_diskHitFillsMemory() throws {
        let url = try env.serveFixture("baseline.jpg")
        _ = env.load(url)
        XCTAssertEqual(env.diskImageExists(forKey: url.absoluteString), true)
        env.cache.clearMemory()
        XCTAssertEqual(env.load(url).calls.last?.cacheType, .disk)
        XCTAssertNotNil(env.cache.imageFromMemoryCache(forKey: url.absoluteString))
    }
}
