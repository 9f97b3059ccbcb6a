import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// A truncated image body that is not a transport error (COD-13): 4.4.8 decodes it with ImageIO's
/// `initWithData:`, which gives a JPEG of the full size with the missing rows grey, so the manager delivers and
/// stores it and does not add the URL to the failed list. The port finishes the JPEG with libjpeg and decodes a
/// PNG to the rows that arrived; data with nothing of the picture in it still fails cleanly. The truncated files
/// are cut from the fixtures here.
final class COD13_TruncatedImageTests: XCTestCase {
    private var env: ManagerTestEnvironment!

    override func setUpWithError() throws {
        env = try ManagerTestEnvironment(namespace: "cod13")
    }

    override func tearDown() {
        env.tearDown()
        env = nil
    }

    private func decodeError(_ data: Data, by coder: any SDWebImageCoder) -> SDWebImageCoderError? {
        do {
            _ = try coder.decodeImage(from: data)
            return nil
        } catch {
            return error as? SDWebImageCoderError
        }
    }

    /// The first `percent` % of a fixture.
    private func cut(_ name: String, percent: Int) throws -> Data {
        let data = try TestFixtures.data(name)
        return data.prefix(data.count * percent / 100)
    }

    /// The end of `jpeg`'s first SOS segment: the scan's header has arrived, none of its data.
    private func endOfScanHeader(_ jpeg: Data) throws -> Int {
        let bytes = [UInt8](jpeg)
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if bytes[index + 1] == 0xDA { return index + 2 + length }
            index += 2 + length
        }
        throw XCTSkip("no SOS marker found")
    }

    // MARK: Decoding

    /// Parity: COD-13 — a baseline JPEG cut at 55 % decodes at its full size, as ImageIO gives it: the rows that
    /// arrived are the full decode's, the rest libjpeg's flat grey; through the default coders too.
    func test_COD13_truncatedJpegDecodesAtFullSize() throws {
        let full = try SDWebImageJPEGCoder.shared.decodeImage(from: TestFixtures.data("baseline.jpg"))
        let data = try cut("baseline.jpg", percent: 55)
        for coder in [SDWebImageJPEGCoder.shared, SDWebImageCodersManager.shared] as [any SDWebImageCoder] {
            let image = try coder.decodeImage(from: data)
            XCTAssertEqual(image.pixelWidth, 256, "\(type(of: coder))")
            XCTAssertEqual(image.pixelHeight, 192, "\(type(of: coder))")
            let rows = CODFixturePixels.identicalLeadingRows(image, full)
            XCTAssertGreaterThan(rows, 32, "the rows that arrived")
            XCTAssertLessThan(rows, 192, "55 % of the data cannot give every row")
            CODFixturePixels.assertPixel(image, x: 255, y: 191, (128, 128, 128, 255), tolerance: 2)
        }
        // A progressive JPEG cut short shows the scans that arrived, at full size.
        let progressive = try SDWebImageJPEGCoder.shared.decodeImage(from: cut("progressive.jpg", percent: 60))
        XCTAssertEqual(progressive.pixelWidth, 256)
        XCTAssertEqual(progressive.pixelHeight, 192)
        XCTAssertLessThan(CODFixturePixels.meanDifference(progressive, full), 20, "close to the picture, not filler")
        // The finished call of a progressive download decodes the same way.
        let finished = try XCTUnwrap(SDWebImageJPEGCoder().incrementallyDecodedImage(with: data, finished: true))
        XCTAssertEqual(finished.pixels, try SDWebImageJPEGCoder.shared.decodeImage(from: data).pixels)
    }

    /// Parity: COD-13 — data with nothing of the picture in it still fails cleanly: a JPEG cut before its scan,
    /// right after the scan's header, or inside its first rows; garbage after a JPEG header.
    func test_COD13_jpegWithoutPictureDataStillFails() throws {
        let jpeg = try TestFixtures.data("baseline.jpg")
        let scanHeaderEnd = try endOfScanHeader(jpeg)
        for length in [20, scanHeaderEnd - 14, scanHeaderEnd, scanHeaderEnd + 40] {
            XCTAssertEqual(
                decodeError(jpeg.prefix(length), by: SDWebImageCodersManager.shared), .truncated(.jpeg),
                "cut at \(length) of \(jpeg.count) bytes")
        }
        XCTAssertNotNil(decodeError(try TestFixtures.data("corrupt.jpg"), by: SDWebImageCodersManager.shared))
        XCTAssertNil(SDWebImageCodersManager.shared.decodedImage(with: jpeg.prefix(scanHeaderEnd)))
    }

    /// Parity: COD-13 — a PNG cut at 50 % decodes at its full size: the rows that arrived are the full decode's,
    /// the rest transparent (so the image has alpha); a PNG cut before its first row is still `truncated`.
    func test_COD13_truncatedPngKeepsTheRowsThatArrived() throws {
        let full = try SDWebImagePNGCoder.shared.decodeImage(from: TestFixtures.data("gradient.png"))
        let image = try SDWebImageCodersManager.shared.decodeImage(from: cut("gradient.png", percent: 50))
        XCTAssertEqual(image.pixelWidth, 256)
        XCTAssertEqual(image.pixelHeight, 192)
        XCTAssertTrue(image.hasAlpha, "the rows that did not arrive are transparent")
        let rows = CODFixturePixels.identicalLeadingRows(image, full)
        XCTAssertGreaterThan(rows, 32)
        XCTAssertLessThan(rows, 192)
        XCTAssertEqual(image.pixel(x: 100, y: 191).a, 0)
        // Interlaced: the passes that arrived.
        let interlaced = try SDWebImagePNGCoder.shared.decodeImage(from: cut("interlaced.png", percent: 80))
        XCTAssertEqual(interlaced.pixelWidth, 33)
        XCTAssertEqual(interlaced.pixelHeight, 17)

        let png = try TestFixtures.data("gradient.png")
        for length in [30, 45] {
            XCTAssertEqual(
                decodeError(png.prefix(length), by: SDWebImageCodersManager.shared), .truncated(.png),
                "cut at \(length) bytes: no row yet")
        }
    }

    // MARK: Through the manager

    /// Asserts what 4.4.8 does with a truncated body that is not a transport error: a full-size image, not from a
    /// cache, stored on disk, the URL not on the failed list, and a later load served (not refused).
    private func assertDeliveredAndStored(
        _ url: URL, width: Int, height: Int, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let final = try XCTUnwrap(env.load(url).calls.last { $0.finished }, file: file, line: line)
        XCTAssertNil(final.error, file: file, line: line)
        XCTAssertEqual(final.image?.pixelWidth, width, file: file, line: line)
        XCTAssertEqual(final.image?.pixelHeight, height, file: file, line: line)
        XCTAssertEqual(final.cacheType, SDImageCacheType.none, file: file, line: line)
        let key = try XCTUnwrap(env.manager.cacheKey(for: url), file: file, line: line)
        XCTAssertEqual(env.diskImageExists(forKey: key), true, "stored on disk", file: file, line: line)
        XCTAssertFalse(env.manager.failedURLs.contains(url), "not blacklisted", file: file, line: line)

        // Loaded again without the cache: served again, not refused as a failed URL.
        let removed = expectation(description: "removed")
        env.cache.removeImage(forKey: key, withCompletion: { removed.fulfill() })
        wait(for: [removed], timeout: 10)
        let again = try XCTUnwrap(env.load(url).calls.last { $0.finished }, file: file, line: line)
        XCTAssertNil(again.error, file: file, line: line)
        XCTAssertEqual(again.image?.pixelWidth, width, file: file, line: line)
        XCTAssertEqual(again.cacheType, SDImageCacheType.none, file: file, line: line)
    }

    /// Parity: COD-13 — over HTTP: a JPEG body with no Content-Length whose server closes the connection early is
    /// a complete response (HTTP cannot tell), so the manager delivers the full-size image and stores it.
    func test_COD13_closeDelimitedTruncatedJpegIsDeliveredAndStored() throws {
        let jpeg = try TestFixtures.data("baseline.jpg")
        env.server.route(
            "/cut.jpg",
            .data(jpeg, contentType: "image/jpeg").withoutContentLength()
                .closeAfter(bytes: jpeg.count * 55 / 100))
        try assertDeliveredAndStored(env.server.url("/cut.jpg"), width: 256, height: 192)
        XCTAssertEqual(env.server.hits("/cut.jpg"), 2)
    }

    /// Parity: COD-13 — the same for a PNG the server cuts short (the port's choice: the rows that arrived).
    func test_COD13_closeDelimitedTruncatedPngIsDeliveredAndStored() throws {
        let png = try TestFixtures.data("gradient.png")
        env.server.route(
            "/cut.png",
            .data(png, contentType: "image/png").withoutContentLength()
                .closeAfter(bytes: png.count / 2))
        try assertDeliveredAndStored(env.server.url("/cut.png"), width: 256, height: 192)
    }

    /// Parity: COD-13 — a truncated JPEG file behind a `file:` URL (DL-17): delivered and stored the same way.
    func test_COD13_truncatedJpegFileURLIsDeliveredAndStored() throws {
        let url = env.directory.url.appendingPathComponent("cut.jpg")
        try cut("baseline.jpg", percent: 55).write(to: url)
        try assertDeliveredAndStored(url, width: 256, height: 192)
    }

    /// Parity: COD-13 — a body shorter than its Content-Length is a transport error, as before: no image, nothing
    /// stored.
    func test_COD13_bodyShorterThanContentLengthStaysAnError() throws {
        let jpeg = try TestFixtures.data("baseline.jpg")
        env.server.route("/short.jpg", .data(jpeg, contentType: "image/jpeg").closeAfter(bytes: jpeg.count * 55 / 100))
        let url = env.server.url("/short.jpg")
        let final = try XCTUnwrap(env.load(url).calls.last { $0.finished })
        XCTAssertNil(final.image)
        XCTAssertEqual(final.errorDomain, NSURLErrorDomain)
        XCTAssertEqual(env.diskImageExists(forKey: env.manager.cacheKey(for: url)), false)
    }
}
