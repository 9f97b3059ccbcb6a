import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// Progressive decoding of partial JPEG and PNG data (COD-03): a partial image from the data so far, a better
/// one from more data, and the full decode at the end.
final class COD03_ProgressiveDecodingTests: XCTestCase {
    /// Parity: COD-03 — the PNG and JPEG coders are progressive; the downloader makes a fresh one per download.
    func test_COD03_pngAndJpegCodersAreProgressive() throws {
        let progressive: [any SDWebImageProgressiveCoder.Type] = [SDWebImagePNGCoder.self, SDWebImageJPEGCoder.self]
        XCTAssertTrue(progressive[0].init().canIncrementallyDecode(from: try TestFixtures.data("rgba.png")))
        XCTAssertTrue(progressive[1].init().canIncrementallyDecode(from: try TestFixtures.data("baseline.jpg")))
        XCTAssertFalse(progressive[1].init().canIncrementallyDecode(from: try TestFixtures.data("rgba.png")))
        XCTAssertFalse(SDWebImageGIFCoder.shared is any SDWebImageProgressiveCoder)
        XCTAssertFalse(SDWebImageWebPCoder.shared is any SDWebImageProgressiveCoder)
    }

    /// Parity: COD-03 — baseline JPEG: more data, more rows identical to the final image; finished = full decode.
    func test_COD03_baselineJpegGainsRows() throws {
        let data = try TestFixtures.data("baseline.jpg")
        let final = try SDWebImageJPEGCoder.shared.decodeImage(from: data)
        let coder = SDWebImageJPEGCoder()
        XCTAssertNil(coder.incrementallyDecodedImage(with: data.prefix(100), finished: false), "the header has not arrived")
        var previousRows = -1
        for percent in [40, 60, 80, 95] {
            let partial = try XCTUnwrap(coder.incrementallyDecodedImage(with: data.prefix(data.count * percent / 100), finished: false),
                                        "\(percent) %")
            XCTAssertEqual(partial.pixelWidth, 256)
            XCTAssertEqual(partial.pixelHeight, 192)
            let rows = CODFixturePixels.identicalLeadingRows(partial, final)
            XCTAssertGreaterThan(rows, previousRows, "\(percent) % of the data shows more finished rows")
            XCTAssertLessThan(rows, 192, "\(percent) % of the data cannot show every row")
            previousRows = rows
        }
        XCTAssertGreaterThan(previousRows, 0)
        let done = try XCTUnwrap(coder.incrementallyDecodedImage(with: data, finished: true))
        XCTAssertEqual(done.pixels, final.pixels)
        XCTAssertNil(SDWebImageJPEGCoder().incrementallyDecodedImage(with: data.prefix(data.count / 2), finished: true),
                     "finished with data that ends early is the strict decode: no image")
    }

    /// Parity: COD-03 — progressive JPEG: every scan that arrives brings the image closer to the final one.
    func test_COD03_progressiveJpegGetsCloser() throws {
        let data = try TestFixtures.data("progressive.jpg")
        let final = try SDWebImageJPEGCoder.shared.decodeImage(from: data)
        let coder = SDWebImageJPEGCoder()
        var distances: [Double] = []
        for percent in [35, 55, 75, 90] {
            if let partial = coder.incrementallyDecodedImage(with: data.prefix(data.count * percent / 100), finished: false) {
                distances.append(CODFixturePixels.meanDifference(partial, final))
            }
        }
        XCTAssertGreaterThanOrEqual(distances.count, 3)
        for (earlier, later) in zip(distances, distances.dropFirst()) {
            XCTAssertLessThanOrEqual(later, earlier, "more scans never make it worse: \(distances)")
        }
        XCTAssertLessThan(distances.last!, distances.first!, "and they make it better: \(distances)")
        XCTAssertEqual(coder.incrementallyDecodedImage(with: data, finished: true)?.pixels, final.pixels)
    }

    /// Parity: COD-03 — PNG through libpng's progressive reader: rows arrive top to bottom, exact, the rest
    /// transparent; only the new bytes are fed each time.
    func test_COD03_pngRowsArriveInOrder() throws {
        let data = try TestFixtures.data("gradient.png")
        let final = try SDWebImagePNGCoder.shared.decodeImage(from: data)
        let coder = SDWebImagePNGCoder()
        XCTAssertNil(coder.incrementallyDecodedImage(with: data.prefix(20), finished: false), "no header yet")
        var previousRows = 0
        for percent in [20, 45, 70, 95] {
            let partial = try XCTUnwrap(coder.incrementallyDecodedImage(with: data.prefix(data.count * percent / 100), finished: false))
            let rows = CODFixturePixels.identicalLeadingRows(partial, final)
            XCTAssertGreaterThan(rows, previousRows, "\(percent) %")
            XCTAssertLessThan(rows, 192)
            XCTAssertEqual(partial.pixel(x: 10, y: 191).a, 0, "rows not arrived yet are transparent")
            XCTAssertTrue(partial.hasAlpha)
            previousRows = rows
        }
        let done = try XCTUnwrap(coder.incrementallyDecodedImage(with: data, finished: true))
        XCTAssertEqual(done.pixels, final.pixels)
        XCTAssertFalse(done.hasAlpha)
    }

    /// Parity: COD-03 — interlaced PNG: the passes fill the image in; the last pass gives the exact pixels.
    func test_COD03_interlacedPngFillsIn() throws {
        let data = try TestFixtures.data("interlaced.png")
        let final = try SDWebImagePNGCoder.shared.decodeImage(from: data)
        let coder = SDWebImagePNGCoder()
        var opaqueCounts: [Int] = []
        for percent in [50, 75, 99] {
            if let partial = coder.incrementallyDecodedImage(with: data.prefix(data.count * percent / 100), finished: false) {
                opaqueCounts.append(stride(from: 3, to: partial.pixels.count, by: 4).filter { partial.pixels[$0] == 255 }.count)
            }
        }
        XCTAssertFalse(opaqueCounts.isEmpty)
        XCTAssertEqual(opaqueCounts, opaqueCounts.sorted(), "each pass adds pixels")
        XCTAssertEqual(coder.incrementallyDecodedImage(with: data, finished: true)?.pixels, final.pixels)
    }

    /// Parity: COD-03 — a progressive coder shared by threads stays consistent (its state is under a lock).
    func test_COD03_concurrentCallsOnOneCoder() throws {
        let png = try TestFixtures.data("gradient.png"), jpeg = try TestFixtures.data("baseline.jpg")
        let pngCoder = SDWebImagePNGCoder(), jpegCoder = SDWebImageJPEGCoder()
        DispatchQueue.concurrentPerform(iterations: 32) { i in
            let fraction = 40 + (i % 6) * 10
            _ = pngCoder.incrementallyDecodedImage(with: png.prefix(png.count * fraction / 100), finished: false)
            let image = jpegCoder.incrementallyDecodedImage(with: jpeg.prefix(jpeg.count * fraction / 100), finished: false)
            XCTAssertEqual(image?.pixelWidth, 256)
        }
        XCTAssertEqual(pngCoder.incrementallyDecodedImage(with: png, finished: true)?.pixelHeight, 192)
    }
}
