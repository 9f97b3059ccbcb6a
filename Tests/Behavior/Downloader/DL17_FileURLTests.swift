import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// `file:` URLs through the downloader and the manager (DL-17). 4.4.8 hands every URL to NSURLSession, which
/// reads file URLs itself; its own test22 sends a bundle file URL through the downloader
/// (`Tests/Tests/SDWebImageDownloaderTests.m:357` at tag 4.4.8).
final class DL17_FileURLTests: XCTestCase {
    private var env: ManagerTestEnvironment!
    private var files: URL { env.directory.url.appendingPathComponent("files", isDirectory: true) }

    override func setUpWithError() throws {
        env = try ManagerTestEnvironment(namespace: "dl17")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
    }

    override func tearDown() {
        env.tearDown()
        env = nil
    }

    /// Copies a fixture into the test's folder and returns its file URL.
    private func fileURL(_ fixture: String) throws -> URL {
        let url = files.appendingPathComponent(fixture)
        try TestFixtures.data(fixture).write(to: url)
        return url
    }

    /// Parity: DL-17 — the downloader reads a file URL: its bytes, decoded, with no request to any server.
    func test_DL17_downloaderLoadsAFileURL() throws {
        let url = try fileURL("baseline.jpg")
        let recorder = downloadAndWait(env.downloader, url)
        XCTAssertNil(recorder.final?.error)
        XCTAssertEqual(recorder.final?.data, try TestFixtures.data("baseline.jpg"))
        XCTAssertEqual(recorder.final?.image?.pixelWidth, 256)
        XCTAssertEqual(recorder.progressCalls.last?.received, try TestFixtures.data("baseline.jpg").count)
        XCTAssertEqual(
            recorder.progressCalls.last?.expected, try TestFixtures.data("baseline.jpg").count,
            "a file's length is known")
        XCTAssertEqual(env.server.totalHits, 0)
    }

    /// Parity: DL-17 — a missing file fails with NSURLErrorFileDoesNotExist and a folder with
    /// NSURLErrorFileIsDirectory, as NSURLSession reports them; no status rule applies to a file.
    func test_DL17_missingFileAndFolderFailClearly() throws {
        let missing = downloadAndWait(env.downloader, files.appendingPathComponent("nothing-here.jpg"))
        XCTAssertEqual(missing.final?.error?.domain, NSURLErrorDomain)
        XCTAssertEqual(missing.final?.error?.code, NSURLErrorFileDoesNotExist)
        XCTAssertTrue(missing.final?.error?.localizedDescription.contains("nothing-here.jpg") ?? false)
        XCTAssertNil(missing.final?.image)

        let folder = downloadAndWait(env.downloader, files)
        XCTAssertEqual(folder.final?.error?.code, NSURLErrorFileIsDirectory)
    }

    /// Parity: DL-17 — the manager loads a file URL and caches it under the URL's absolute string
    /// ("file:///…/baseline.jpg"): the second load is a memory hit and the disk file is named after that key.
    func test_DL17_managerLoadsAndCachesAFileURL() throws {
        let url = try fileURL("baseline.jpg")
        let first = expectation(description: "first load")
        let firstType = Locked<SDImageCacheType?>(nil)
        env.manager.loadImage(with: url, options: [], progress: nil) { image, _, error, cacheType, finished, _ in
            XCTAssertNil(error)
            XCTAssertEqual(image?.pixelWidth, 256)
            if finished {
                firstType.value = cacheType
                first.fulfill()
            }
        }
        wait(for: [first], timeout: 10)
        XCTAssertEqual(firstType.value, SDImageCacheType.none, "read from the file, not a cache")
        let key = try XCTUnwrap(env.manager.cacheKey(for: url))
        XCTAssertEqual(key, url.absoluteString)
        XCTAssertTrue(key.hasPrefix("file:///"))
        XCTAssertEqual(env.diskImageExists(forKey: key), true)
        let cached = try XCTUnwrap(env.cache.imageFromMemoryCache(forKey: key))

        // The second load: a memory hit, the very image the cache holds, with the file itself gone meanwhile.
        try FileManager.default.removeItem(at: url)
        let second = expectation(description: "second load")
        let secondResult = Locked<(UIImage?, SDImageCacheType?, Bool)>((nil, nil, false))
        env.manager.loadImage(with: url, options: [], progress: nil) { image, _, error, cacheType, finished, _ in
            XCTAssertNil(error)
            secondResult.value = (image, cacheType, finished)
            second.fulfill()
        }
        wait(for: [second], timeout: 10)
        XCTAssertEqual(secondResult.value.1, .memory, "the second load is a memory hit")
        XCTAssertTrue(secondResult.value.0 === cached, "the memory cache's image")
        XCTAssertTrue(secondResult.value.2)

        let missing = expectation(description: "missing file")
        env.manager.loadImage(with: files.appendingPathComponent("gone.jpg"), options: [], progress: nil) {
            image, _, error, _, _, _ in
            XCTAssertNil(image)
            XCTAssertEqual((error as NSError?)?.code, NSURLErrorFileDoesNotExist)
            missing.fulfill()
        }
        wait(for: [missing], timeout: 10)
    }

    /// Parity: DL-17 — a redirect never leads to a file URL: a 302 whose Location is a file URL is not followed,
    /// so the file is never read (the redirect response itself ends the download, which has no image).
    func test_DL17_redirectNeverLeadsToAFileURL() throws {
        let secret = try fileURL("baseline.jpg")
        env.server.route("/to-file", .redirect(to: secret.absoluteString))
        let recorder = downloadAndWait(env.downloader, env.server.url("/to-file"))
        XCTAssertNil(recorder.final?.image)
        XCTAssertNotNil(recorder.final?.error)
        XCTAssertNotEqual(recorder.final?.data, try TestFixtures.data("baseline.jpg"))
        XCTAssertEqual(env.server.hits("/to-file"), 1)
    }
}
