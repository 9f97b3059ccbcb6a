import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// The encoders (COD-06): PNG and lossless WebP round-trip exactly; JPEG and lossy WebP within a tolerance;
/// GIF keeps frames, delays and the loop count.
final class COD06_EncoderRoundTripTests: XCTestCase {
    /// The default set plus the animated GIF coder, so animated GIFs round-trip (the default set writes a still GIF).
    private let manager = AnimatedGIFCoding.manager()

    /// A 24×16 RGBA test card: a colour ramp, translucent columns, and fully transparent pixels with colour.
    private func card() -> UIImage {
        var pixels = [UInt8]()
        for y in 0..<16 {
            for x in 0..<24 {
                let alpha: UInt8 = x < 16 ? 255 : x < 20 ? UInt8(40 * (x - 15)) : 0
                pixels += [UInt8(x * 10), UInt8(y * 15), UInt8((x * y) % 256), alpha]
            }
        }
        return UIImage(pixelWidth: 24, pixelHeight: 16, pixels: pixels, hasAlpha: true)
    }

    /// Parity: COD-06 — PNG: exact pixels for RGBA, and opaque images (written as RGB) too.
    func test_COD06_pngRoundTripIsExact() throws {
        let image = card()
        let data = try XCTUnwrap(SDWebImagePNGCoder.shared.encodedData(with: image, format: .png))
        XCTAssertEqual(Data.sd_imageFormat(forImageData: data), .png)
        let back = try manager.decodeImage(from: data)
        XCTAssertTrue(back.hasAlpha)
        XCTAssertEqual(back.pixels, image.pixels)

        let opaque = try manager.decodeImage(from: try TestFixtures.data("gradient.png"))
        let opaqueData = try SDWebImagePNGCoder.shared.encode(opaque)
        XCTAssertEqual(opaqueData[25], 2, "IHDR colour type 2: RGB, no alpha channel written")
        let opaqueBack = try manager.decodeImage(from: opaqueData)
        XCTAssertFalse(opaqueBack.hasAlpha)
        XCTAssertEqual(opaqueBack.pixels, opaque.pixels)
        XCTAssertNil(SDWebImagePNGCoder.shared.encodedData(with: image, format: .jpeg), "wrong format")
        XCTAssertThrowsError(
            try SDWebImagePNGCoder.shared.encode(UIImage(pixelWidth: 0, pixelHeight: 0, pixels: [], hasAlpha: false)))
    }

    /// Parity: COD-06 — lossless WebP is exact, down to the colour under fully transparent pixels (`exact`).
    func test_COD06_losslessWebpRoundTripIsExact() throws {
        let image = card()
        let data = try SDWebImageWebPCoder.shared.encode(image, lossless: true)
        XCTAssertEqual(Data.sd_imageFormat(forImageData: data), .webp)
        let back = try manager.decodeImage(from: data)
        XCTAssertEqual(back.pixels, image.pixels)
        XCTAssertTrue(back.hasAlpha)
        let fixture = try manager.decodeImage(from: try TestFixtures.data("lossless.webp"))
        XCTAssertEqual(
            try manager.decodeImage(from: try SDWebImageWebPCoder.shared.encode(fixture, lossless: true)).pixels,
            fixture.pixels)
    }

    /// Parity: COD-06 — JPEG and lossy WebP keep size and colours within a tolerance; JPEG has no alpha.
    func test_COD06_lossyRoundTripsWithinTolerance() throws {
        let blocks = try manager.decodeImage(from: try TestFixtures.data("baseline.jpg"))
        let jpeg = try XCTUnwrap(SDWebImageJPEGCoder.shared.encodedData(with: blocks, format: .jpeg))
        let jpegBack = try manager.decodeImage(from: jpeg)
        XCTAssertFalse(jpegBack.hasAlpha)
        CODFixturePixels.assertBlockColors(jpegBack, tolerance: 8)  // a second JPEG generation
        XCTAssertLessThan(CODFixturePixels.meanDifference(jpegBack, blocks), 2)

        let low = try SDWebImageJPEGCoder.shared.encode(blocks, quality: 10)
        XCTAssertLessThan(low.count, jpeg.count, "quality matters")

        let webp = try XCTUnwrap(SDWebImageWebPCoder.shared.encodedData(with: blocks, format: .webp))
        let webpBack = try manager.decodeImage(from: webp)
        XCTAssertFalse(webpBack.hasAlpha)
        CODFixturePixels.assertBlockColors(webpBack, tolerance: 8)

        let translucent = try SDWebImageWebPCoder.shared.encode(card(), lossless: false, quality: 90)
        let translucentBack = try manager.decodeImage(from: translucent)
        XCTAssertTrue(translucentBack.hasAlpha)
        XCTAssertEqual(translucentBack.pixel(x: 22, y: 5).a, 0)
        XCTAssertEqual(Int(translucentBack.pixel(x: 17, y: 5).a), 80, accuracy: 4)
    }

    /// Parity: COD-06 — animated GIF: frames (exact, their palettes fit), delays and the loop count survive.
    func test_COD06_animatedGifRoundTrip() throws {
        let original = try manager.decodeImage(from: try TestFixtures.data("animated.gif"))
        let data = try XCTUnwrap(manager.encodedData(with: original, format: .gif))
        let back = try manager.decodeImage(from: data)
        XCTAssertEqual(back.distinctFrames.count, 5)
        XCTAssertEqual(back.sd_imageLoopCount, 3)
        for (a, b) in zip(back.frameDurations, original.frameDurations) {
            XCTAssertEqual(a, b, accuracy: 0.005)
        }
        for (a, b) in zip(back.distinctFrames, original.distinctFrames) {
            XCTAssertEqual(a.pixels, b.pixels, "few colours: an exact palette, no quantization")
        }
    }

    /// Parity: COD-06 — still GIF; more than 256 colours are quantized (lossy) but stay close.
    func test_COD06_stillGifAndQuantization() throws {
        let still = try manager.decodeImage(from: try TestFixtures.data("still.gif"))
        let stillBack = try manager.decodeImage(
            from: try XCTUnwrap(SDWebImageGIFCoder.shared.encodedData(with: still, format: .gif)))
        XCTAssertNil(stillBack.images)
        XCTAssertEqual(stillBack.pixels, still.pixels)

        // A smooth 256×192 ramp: 49,152 colours, far more than a GIF palette holds.
        var ramp = [UInt8]()
        for y in 0..<192 {
            for x in 0..<256 { ramp += [UInt8(x), UInt8(y), 128, 255] }
        }
        let gradient = UIImage(pixelWidth: 256, pixelHeight: 192, pixels: ramp, hasAlpha: false)
        let quantized = try manager.decodeImage(from: try SDWebImageGIFCoder.shared.encode(gradient))
        XCTAssertEqual(quantized.pixelWidth, 256)
        XCTAssertFalse(quantized.hasAlpha)
        XCTAssertNotEqual(quantized.pixels, gradient.pixels, "lossy")
        XCTAssertLessThan(CODFixturePixels.meanDifference(quantized, gradient), 6, "median cut stays close")

        let withHoles = try manager.decodeImage(from: try SDWebImageGIFCoder.shared.encode(card()))
        XCTAssertEqual(withHoles.pixel(x: 22, y: 3).a, 0, "alpha under 128 becomes the transparent index")
        XCTAssertEqual(withHoles.pixel(x: 3, y: 3).a, 255)
    }

    /// Parity: COD-06 — animated WebP (WebPAnimEncoder): lossless frames exact, durations and loop count kept.
    func test_COD06_animatedWebpRoundTrip() throws {
        let original = try manager.decodeImage(from: try TestFixtures.data("animated.webp"))
        let lossless = try manager.decodeImage(from: try SDWebImageWebPCoder.shared.encode(original, lossless: true))
        XCTAssertEqual(lossless.distinctFrames.count, 3)
        XCTAssertEqual(lossless.sd_imageLoopCount, 2)
        for (a, b) in zip(lossless.frameDurations, original.frameDurations) {
            XCTAssertEqual(a, b, accuracy: 1e-9)
        }
        for (a, b) in zip(lossless.distinctFrames, original.distinctFrames) {
            XCTAssertEqual(a.pixels, b.pixels)
        }
        let lossy = try manager.decodeImage(from: try XCTUnwrap(manager.encodedData(with: original, format: .webp)))
        XCTAssertEqual(lossy.distinctFrames.count, 3)
        CODFixturePixels.assertPixel(lossy.distinctFrames[1], x: 5, y: 5, (0, 255, 0, 255), tolerance: 8)
    }
}
