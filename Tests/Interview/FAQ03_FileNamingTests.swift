import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// Proves FAQ-03: the card is `Docs/knowledge/faq/FAQ-03.json` (question, answer, citations; `sdport faq 3` prints it).
///
/// Compares `cachedFileName(forKey:)` with MD5 values computed independently, for keys with a path extension, a query
/// string, no extension, and an extension of 222 and 223 characters; stores an image and checks the memory key and the
/// file on disk, then writes a file under the bare hash and checks that a read still finds it.
final class FAQ03_FileNamingTests: XCTestCase {
    /// Parity: FAQ-03 — MD5 hex plus the URL path extension (known MD5 values, computed independently).
    func test_FAQ03_fileNameIsMD5PlusExtension() {
        // md5("http://example.com/image.png") and md5("") from coreutils' md5sum.
        XCTAssertEqual(
            SDImageCache.cachedFileName(forKey: "http://example.com/image.png"), "dff8cd3202a7f9a9529aff84233be568.png")
        XCTAssertEqual(SDImageCache.cachedFileName(forKey: ""), "d41d8cd98f00b204e9800998ecf8427e")
        XCTAssertEqual(
            SDImageCache.cachedFileName(forKey: nil), "d41d8cd98f00b204e9800998ecf8427e", "nil hashes as empty")
    }

    /// Parity: FAQ-03 — the query string is ignored; no extension gives the bare hash; case is kept.
    func test_FAQ03_extensionComesFromTheURLPath() {
        let withQuery = SDImageCache.cachedFileName(forKey: "http://example.com/a.jpg?size=1.5&v=2.gif")
        XCTAssertTrue(withQuery.hasSuffix(".jpg"), withQuery)
        XCTAssertEqual(withQuery.count, 32 + 4)
        let bare = SDImageCache.cachedFileName(forKey: "http://example.com/images/12345")
        XCTAssertEqual(bare.count, 32)
        XCTAssertTrue(bare.allSatisfy { "0123456789abcdef".contains($0) })
        XCTAssertTrue(SDImageCache.cachedFileName(forKey: "http://example.com/A.JPG").hasSuffix(".JPG"))
        XCTAssertTrue(
            SDImageCache.cachedFileName(forKey: "http://example.com/dir.v2/file").count == 32,
            "a dot in a directory name is not an extension")
    }

    /// Parity: FAQ-03 — an extension over 222 characters is dropped (4.4.3+); exactly 222 is kept.
    func test_FAQ03_overlongExtensionIsDropped() {
        let kept = SDImageCache.cachedFileName(forKey: "http://example.com/f." + String(repeating: "x", count: 222))
        XCTAssertEqual(kept.count, 32 + 1 + 222)
        let dropped = SDImageCache.cachedFileName(forKey: "http://example.com/f." + String(repeating: "x", count: 223))
        XCTAssertEqual(dropped.count, 32)
    }

    /// Parity: FAQ-03 — the memory key is the key itself; the file is at the hashed name; a file with the old
    /// name (without extension) is still read.
    func test_FAQ03_memoryKeyIsTheURLAndReadsFallBackToTheBareName() throws {
        let directory = try TemporaryDirectory(prefix: "sdport-faq03")
        defer { directory.remove() }
        let cache = SDImageCache(namespace: "faq03", diskCacheDirectory: directory.path)
        let key = "http://example.com/photo.png"
        let image = UIImage(pixelWidth: 1, pixelHeight: 1, pixels: [1, 2, 3, 255], hasAlpha: false)
        cache.store(image, imageData: nil, forKey: key, toDisk: false, completion: nil)
        XCTAssertTrue(cache.memCache.object(forKey: key) === image, "memory is keyed by the URL string")

        try FileManager.default.createDirectory(atPath: cache.diskCachePath, withIntermediateDirectories: true)
        let bare =
            cache.diskCachePath + "/" + (SDImageCache.cachedFileName(forKey: key) as NSString).deletingPathExtension
        XCTAssertTrue(FileManager.default.createFile(atPath: bare, contents: Data("old".utf8)))
        XCTAssertEqual(cache.diskImageData(forKey: key), Data("old".utf8))
        XCTAssertTrue(cache.diskImageDataExists(withKey: key))
    }
}
