import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// Scaling down to the 60 MB limit with the aspect ratio kept (COD-05), on `Fixtures/large.png`
/// (5250×3450 = 18,112,500 pixels, quadrants red, green, blue, white).
final class COD05_ScaleDownTests: XCTestCase {
    /// Parity: COD-05 — the limit and the size formula are the original's: 60 MB / 4 bytes = 15,728,640 pixels,
    /// both sides times sqrt(limit / pixels), truncated.
    func test_COD05_limitAndSizeFormula() {
        XCTAssertEqual(SDWebImageCoderHelper.destTotalPixels, 15_728_640)
        let size = SDWebImageCoderHelper.scaledDownSize(width: 5250, height: 3450)
        XCTAssertEqual(size.width, 4892)
        XCTAssertEqual(size.height, 3214)  // 3214.96 truncated, as `(int)` does in the original
        XCTAssertLessThanOrEqual(size.width * size.height, SDWebImageCoderHelper.destTotalPixels)
        let small = UIImage(pixelWidth: 3965, pixelHeight: 3965, pixels: [], hasAlpha: false)
        XCTAssertFalse(SDWebImageCoderHelper.shouldScaleDownImage(small), "3965² = 15,721,225 fits under the limit")
    }

    /// Parity: COD-05 — a side under 1/4000 of the other truncates to 0, as 4.4.8's `(int)` does
    /// (`SDWebImageImageIOCoder.m:274-277`); 4.4.8 then gets no bitmap context and returns the image as it is
    /// (`:297-299`): so does the port (a 1×20,000,000 strip with a limit of 40 pixels: 0×28).
    func test_COD05_sideOfZeroLeavesTheImageUnscaled() throws {
        XCTAssertEqual(SDWebImageCoderHelper.scaledDownSize(width: 1, height: 20_000_000).width, 0)
        let strip = UIImage(
            pixelWidth: 1, pixelHeight: 400, pixels: [UInt8](repeating: 200, count: 1600), hasAlpha: false)
        XCTAssertEqual(SDWebImageCoderHelper.scaledDownSize(width: 1, height: 400, limitPixels: 40).width, 0)
        let result = try XCTUnwrap(SDWebImageCoderHelper.decompressedAndScaledDownImage(strip, limitPixels: 40))
        XCTAssertTrue(result === strip, "returned as it is, not scaled")
    }

    /// Parity: COD-05 — with the scale-down option a large image shrinks, keeps its aspect and its content, and
    /// `data` is re-encoded (PNG stays PNG) so the disk cache keeps the smaller image.
    func test_COD05_largeImageIsScaledDownWithAspectKept() throws {
        let original = try TestFixtures.data("large.png")
        let image = try SDWebImageCodersManager.shared.decodeImage(from: original)
        XCTAssertEqual(image.pixelWidth, 5250)
        XCTAssertEqual(image.pixelHeight, 3450)
        XCTAssertTrue(SDWebImageCoderHelper.shouldScaleDownImage(image))

        var data: Data? = original
        let scaled = try XCTUnwrap(
            SDWebImageCodersManager.shared.decompressedImage(
                with: image, data: &data, options: [SDWebImageCoderScaleDownLargeImagesKey: true]))
        XCTAssertEqual(scaled.pixelWidth, 4892)
        XCTAssertEqual(scaled.pixelHeight, 3214)
        XCTAssertEqual(Double(scaled.pixelWidth) / Double(scaled.pixelHeight), 5250.0 / 3450.0, accuracy: 0.001)
        XCTAssertLessThanOrEqual(scaled.pixelWidth * scaled.pixelHeight * 4, 60 * 1024 * 1024)
        XCTAssertTrue(scaled.sd_isDecoded)
        XCTAssertFalse(scaled.hasAlpha)
        XCTAssertEqual(scaled.sd_imageFormat, .png)
        // Quadrants survive; the seam lands where it should (2625 × 0.93187 ≈ 2446).
        CODFixturePixels.assertPixel(scaled, x: 1000, y: 1000, (255, 0, 0, 255))
        CODFixturePixels.assertPixel(scaled, x: 4000, y: 1000, (0, 255, 0, 255))
        CODFixturePixels.assertPixel(scaled, x: 1000, y: 3000, (0, 0, 255, 255))
        CODFixturePixels.assertPixel(scaled, x: 4000, y: 3000, (255, 255, 255, 255))
        CODFixturePixels.assertPixel(scaled, x: 2444, y: 500, (255, 0, 0, 255))
        CODFixturePixels.assertPixel(scaled, x: 2448, y: 500, (0, 255, 0, 255))

        let newData = try XCTUnwrap(data)
        XCTAssertNotEqual(newData, original)
        XCTAssertEqual(Data.sd_imageFormat(forImageData: newData), .png)
        let reread = try SDWebImagePNGCoder.shared.decodeImage(from: newData)
        XCTAssertEqual(reread.pixelWidth, 4892)
        XCTAssertEqual(reread.pixelHeight, 3214)
    }

    /// Parity: COD-05 — without the option, or under the limit, nothing is scaled and the data stays.
    func test_COD05_noScalingWithoutTheOptionOrUnderTheLimit() throws {
        let small = try SDWebImagePNGCoder.shared.decodeImage(from: try TestFixtures.data("gradient.png"))
        var data: Data? = try TestFixtures.data("gradient.png")
        let kept = try XCTUnwrap(
            SDWebImagePNGCoder.shared.decompressedImage(
                with: small, data: &data,
                options: [SDWebImageCoderScaleDownLargeImagesKey: true]))
        XCTAssertEqual(kept.pixelWidth, 256)
        XCTAssertTrue(kept.sd_isDecoded)
        XCTAssertEqual(data, try TestFixtures.data("gradient.png"))

        // A synthetic large image (no file needed) without the option: force-decoded at full size.
        let large = UIImage(
            pixelWidth: 4000, pixelHeight: 4000, pixels: [UInt8](repeating: 255, count: 4000 * 4000 * 4),
            hasAlpha: false)
        var none: Data?
        let full = try XCTUnwrap(
            SDWebImageCodersManager.shared.decompressedImage(
                with: large, data: &none, options: [SDWebImageCoderScaleDownLargeImagesKey: false]))
        XCTAssertEqual(full.pixelWidth, 4000)
        XCTAssertNil(none)
    }

    /// Parity: COD-05 — transparent areas do not bleed dark colour into their neighbours when averaged.
    func test_COD05_resamplingRespectsAlpha() throws {
        // 2×2: in each row an opaque white pixel next to a fully transparent black one, shrunk to 1×1.
        let image = UIImage(
            pixelWidth: 2, pixelHeight: 2,
            pixels: [
                255, 255, 255, 255, 0, 0, 0, 0,
                255, 255, 255, 255, 0, 0, 0, 0,
            ], hasAlpha: true)
        let scaled = try XCTUnwrap(SDWebImageCoderHelper.decompressedAndScaledDownImage(image, limitPixels: 1))
        XCTAssertEqual(scaled.pixelWidth, 1)
        CODFixturePixels.assertPixel(scaled, x: 0, y: 0, (255, 255, 255, 128), tolerance: 1)
    }

    /// Parity: COD-05 — a JPEG over the limit is decoded row by row straight to its scaled size (the full bitmap
    /// never exists, as 4.4.8 draws its source in tiles); the pixels are exactly those of decoding, then scaling.
    func test_COD05_streamedScaleDownEqualsDecodeThenScale() throws {
        let data = try TestFixtures.data("baseline.jpg")
        let full = try SDWebImageCodersManager.shared.decodeImage(from: data)
        let limit = full.pixelWidth * full.pixelHeight / 3
        let expected = try XCTUnwrap(SDWebImageCoderHelper.decompressedAndScaledDownImage(full, limitPixels: limit))
        let streamed = try XCTUnwrap(SDWebImageJPEGCoder.decodeScaledDown(from: data, limitPixels: limit))
        XCTAssertEqual(streamed.pixelWidth, expected.pixelWidth)
        XCTAssertEqual(streamed.pixelHeight, expected.pixelHeight)
        XCTAssertLessThan(streamed.pixelWidth, full.pixelWidth)
        XCTAssertEqual(streamed.pixels, expected.pixels, "the streamed rows are libjpeg's rows, resampled the same way")
        XCTAssertTrue(streamed.sd_isDecoded)
        // Under the limit, rotated by EXIF, or not a JPEG: nothing to stream, the ordinary path runs.
        XCTAssertNil(
            try SDWebImageJPEGCoder.decodeScaledDown(from: data, limitPixels: full.pixelWidth * full.pixelHeight))
        XCTAssertNil(
            try SDWebImageJPEGCoder.decodeScaledDown(from: TestFixtures.data("orientation-6.jpg"), limitPixels: 100))
        XCTAssertNil(
            try SDWebImageJPEGCoder.decodeScaledDown(from: TestFixtures.data("gradient.png"), limitPixels: 100))
        // Cut short (COD-13): streamed to the same picture as the ordinary decode of the truncated data, scaled.
        let cut = data.prefix(data.count / 2)
        let cutExpected = try XCTUnwrap(
            SDWebImageCoderHelper.decompressedAndScaledDownImage(
                try SDWebImageCodersManager.shared.decodeImage(from: cut), limitPixels: limit))
        XCTAssertEqual(
            try SDWebImageJPEGCoder.decodeScaledDown(from: cut, limitPixels: limit)?.pixels, cutExpected.pixels)
        // Cut before its first rows: nothing to stream; the ordinary decode fails.
        let scanStart = try XCTUnwrap(data.firstRange(of: Data([0xFF, 0xDA]))).lowerBound
        XCTAssertNil(try SDWebImageJPEGCoder.decodeScaledDown(from: data.prefix(scanStart + 14), limitPixels: limit))
    }
}
