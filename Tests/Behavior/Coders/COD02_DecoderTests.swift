import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// The decoders on real libraries, checked against what the fixtures are known to contain (Fixtures/README.md).
final class COD02_DecoderTests: XCTestCase {
    /// Every library's decoder: the default set plus the animated GIF coder (COD-02 is about the libraries;
    /// what the default set gives a GIF is COD-01/COD-10's).
    private let manager = AnimatedGIFCoding.manager()

    private func decode(_ name: String) throws -> UIImage {
        try manager.decodeImage(from: try TestFixtures.data(name))
    }

    /// Parity: COD-02 — baseline and progressive JPEG through libjpeg-turbo: size, no alpha, block colours.
    func test_COD02_jpegBaselineAndProgressive() throws {
        for name in ["baseline.jpg", "progressive.jpg"] {
            let image = try decode(name)
            XCTAssertEqual(image.sd_imageFormat, .jpeg, name)
            XCTAssertFalse(image.hasAlpha, name)
            XCTAssertNil(image.images, name)
            CODFixturePixels.assertBlockColors(image, tolerance: 4)
            CODFixturePixels.assertPixel(image, x: 0, y: 0, (8, 10, 0, 255), tolerance: 4)
        }
        let baseline = try decode("baseline.jpg")
        let progressive = try decode("progressive.jpg")
        XCTAssertLessThanOrEqual(
            CODFixturePixels.maxDifference(baseline, progressive), 8,
            "the same picture, coded sequentially and progressively")
    }

    /// Parity: COD-02 — grayscale JPEG expands to RGB with equal channels.
    func test_COD02_grayscaleJpeg() throws {
        let image = try decode("gray.jpg")
        XCTAssertEqual(image.pixelWidth, 64)
        XCTAssertEqual(image.pixelHeight, 64)
        for by in 0..<8 {
            for bx in 0..<8 {
                let value = (bx * 8 + by) * 4
                CODFixturePixels.assertPixel(
                    image, x: bx * 8 + 4, y: by * 8 + 4, (value, value, value, 255), tolerance: 3)
            }
        }
    }

    /// Parity: COD-02 — CMYK JPEG (which TurboJPEG cannot convert) goes through the libjpeg shim.
    func test_COD02_cmykJpegConvertsToRGB() throws {
        let image = try decode("cmyk.jpg")
        XCTAssertEqual(image.pixelWidth, 32)
        XCTAssertFalse(image.hasAlpha)
        CODFixturePixels.assertPixel(image, x: 8, y: 8, (0, 255, 255, 255), tolerance: 4)  // cyan
        CODFixturePixels.assertPixel(image, x: 24, y: 8, (255, 0, 255, 255), tolerance: 4)  // magenta
        CODFixturePixels.assertPixel(image, x: 8, y: 24, (255, 255, 0, 255), tolerance: 4)  // yellow
        CODFixturePixels.assertPixel(image, x: 24, y: 24, (127, 127, 127, 255), tolerance: 4)  // 50 % black
    }

    /// Parity: COD-02 — RGBA PNG: exact pixels, straight alpha, hasAlpha.
    func test_COD02_rgbaPng() throws {
        let image = try decode("rgba.png")
        XCTAssertEqual(image.sd_imageFormat, .png)
        XCTAssertTrue(image.hasAlpha)
        CODFixturePixels.assertPixel(image, x: 0, y: 0, (0, 0, 0, 0))
        CODFixturePixels.assertPixel(image, x: 5, y: 5, (255, 0, 0, 255))
        CODFixturePixels.assertPixel(image, x: 20, y: 20, (0, 0, 255, 128))
    }

    /// Parity: COD-02 — palette PNG with tRNS: expanded, the transparent index has alpha 0.
    func test_COD02_palettePngWithTransparency() throws {
        let image = try decode("palette.png")
        XCTAssertTrue(image.hasAlpha, "a tRNS chunk counts as alpha")
        XCTAssertEqual(image.pixel(x: 2, y: 2).a, 0)
        CODFixturePixels.assertPixel(image, x: 12, y: 2, (255, 0, 0, 255))
        CODFixturePixels.assertPixel(image, x: 2, y: 12, (0, 255, 0, 255))
        CODFixturePixels.assertPixel(image, x: 12, y: 12, (0, 0, 255, 255))
    }

    /// Parity: COD-02 — 16-bit PNG without gamma information is read as sRGB and scaled to 8 bits exactly.
    func test_COD02_sixteenBitPng() throws {
        let image = try decode("rgb16.png")
        XCTAssertFalse(image.hasAlpha)
        CODFixturePixels.assertPixel(image, x: 2, y: 2, (10, 20, 30, 255))
        CODFixturePixels.assertPixel(image, x: 12, y: 2, (200, 100, 50, 255))
        CODFixturePixels.assertPixel(image, x: 2, y: 12, (0, 255, 128, 255))
        CODFixturePixels.assertPixel(image, x: 12, y: 12, (77, 88, 99, 255))
    }

    /// Parity: COD-02 — Adam7-interlaced PNG: every pixel exact.
    func test_COD02_interlacedPngEveryPixel() throws {
        let image = try decode("interlaced.png")
        XCTAssertEqual(image.pixelWidth, 33)
        XCTAssertEqual(image.pixelHeight, 17)
        for y in 0..<17 {
            for x in 0..<33 {
                CODFixturePixels.assertPixel(
                    image, x: x, y: y, ((x * 7) % 256, (y * 13) % 256, ((x + y) * 5) % 256, 255))
            }
        }
    }

    /// Parity: COD-02 — animated GIF: five composited frames (disposal 1, 2, 3, an interlaced frame, a
    /// transparent index), delays with 0 and 1 cs shown for 100 ms, the NETSCAPE2.0 loop count.
    func test_COD02_animatedGifFramesDelaysLoopCount() throws {
        let image = try decode("animated.gif")
        XCTAssertEqual(image.sd_imageFormat, .gif)
        XCTAssertEqual(image.pixelWidth, 20)
        XCTAssertEqual(image.distinctFrames.count, 5)
        XCTAssertEqual(image.sd_imageLoopCount, 3)
        XCTAssertEqual(image.frameDurations.count, 5)
        for (actual, expected) in zip(image.frameDurations, [0.1, 0.2, 0.1, 0.1, 0.07]) {
            XCTAssertEqual(actual, expected, accuracy: 1e-9)
        }
        XCTAssertTrue(image.hasAlpha, "frames 3-5 have a transparent hole")
        let frames = image.distinctFrames
        let red = (255, 0, 0, 255)
        let blue = (0, 0, 255, 255)
        let white = (255, 255, 255, 255)
        let green = (0, 255, 0, 255)
        let clear = (0, 0, 0, 0)
        // 1: all red
        CODFixturePixels.assertPixel(frames[0], x: 10, y: 10, red)
        XCTAssertFalse(frames[0].hasAlpha)
        // 2: the interlaced block; its transparent 2×2 corner shows frame 1
        CODFixturePixels.assertPixel(frames[1], x: 5, y: 5, red)
        CODFixturePixels.assertPixel(frames[1], x: 7, y: 5, blue)
        CODFixturePixels.assertPixel(frames[1], x: 10, y: 6, blue)  // block row 1 (4th interlace pass)
        CODFixturePixels.assertPixel(frames[1], x: 10, y: 13, white)  // block row 8 (1st pass)
        CODFixturePixels.assertPixel(frames[1], x: 10, y: 9, blue)  // block row 4 (2nd pass)
        CODFixturePixels.assertPixel(frames[1], x: 2, y: 2, red)
        // 3: disposal 2 cleared the block; green square on top
        CODFixturePixels.assertPixel(frames[2], x: 10, y: 10, clear)
        CODFixturePixels.assertPixel(frames[2], x: 1, y: 1, green)
        CODFixturePixels.assertPixel(frames[2], x: 18, y: 18, red)
        // 4: disposal 3 restored what was under the green square
        CODFixturePixels.assertPixel(frames[3], x: 1, y: 1, red)
        CODFixturePixels.assertPixel(frames[3], x: 17, y: 17, white)
        CODFixturePixels.assertPixel(frames[3], x: 10, y: 10, clear)
        // 5: blue band over the bottom two rows
        CODFixturePixels.assertPixel(frames[4], x: 17, y: 17, white)
        CODFixturePixels.assertPixel(frames[4], x: 17, y: 18, blue)
        CODFixturePixels.assertPixel(frames[4], x: 0, y: 19, blue)
        XCTAssertEqual(image.duration, 0.57, accuracy: 1e-9)
    }

    /// Parity: COD-02 — a one-frame GIF is a still image.
    func test_COD02_singleFrameGifIsStill() throws {
        let image = try decode("still.gif")
        XCTAssertNil(image.images)
        XCTAssertEqual(image.sd_imageFormat, .gif)
        XCTAssertFalse(image.hasAlpha)
        CODFixturePixels.assertPixel(image, x: 3, y: 1, (255, 255, 0, 255))
        CODFixturePixels.assertPixel(image, x: 3, y: 6, (0, 255, 255, 255))
    }

    /// Parity: COD-02 — lossy and lossless still WebP.
    func test_COD02_webpLossyAndLossless() throws {
        let lossy = try decode("lossy.webp")
        XCTAssertEqual(lossy.sd_imageFormat, .webp)
        XCTAssertFalse(lossy.hasAlpha)
        CODFixturePixels.assertBlockColors(lossy, tolerance: 8)

        let lossless = try decode("lossless.webp")
        XCTAssertTrue(lossless.hasAlpha)
        for y in 0..<16 {
            for x in 0..<16 {
                CODFixturePixels.assertPixel(
                    lossless, x: x, y: y, (x * 16, y * 16, (x + y) * 8, x < 12 ? 255 : x * 20 - 220))
            }
        }
    }

    /// Parity: COD-02 — animated WebP through WebPAnimDecoder: frames, durations (10 ms → 100 ms), loop count.
    func test_COD02_animatedWebp() throws {
        let image = try decode("animated.webp")
        let frames = image.distinctFrames
        XCTAssertEqual(frames.count, 3)
        XCTAssertEqual(image.sd_imageLoopCount, 2)
        for (actual, expected) in zip(image.frameDurations, [0.1, 0.25, 0.1]) {
            XCTAssertEqual(actual, expected, accuracy: 1e-9)
        }
        CODFixturePixels.assertPixel(frames[0], x: 3, y: 3, (255, 0, 0, 255))
        CODFixturePixels.assertPixel(frames[1], x: 20, y: 3, (0, 255, 0, 255))
        CODFixturePixels.assertPixel(frames[2], x: 3, y: 3, (0, 0, 255, 255))
        XCTAssertEqual(frames[2].pixel(x: 20, y: 3).a, 0, "the right half of frame 3 is transparent")
        XCTAssertTrue(frames[2].hasAlpha)
        XCTAssertFalse(frames[0].hasAlpha)
    }

    /// Parity: COD-02 — the format comes from the bytes, not the file name.
    func test_COD02_pngNamedJpgDecodesAsPng() throws {
        let image = try decode("png-named.jpg")
        XCTAssertEqual(image.sd_imageFormat, .png)
        XCTAssertEqual(image.pixelWidth, 32)
    }

    /// Parity: COD-02 — TIFF and HEIC are recognised but have no coder: a clean `noCoder` error.
    func test_COD02_tiffAndHeicHaveNoCoder() {
        let tiff = Data([0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00])
        let heic = Data([0, 0, 0, 0x18]) + Data("ftypheic".utf8) + Data(count: 16)
        XCTAssertThrowsError(try manager.decodeImage(from: tiff)) {
            XCTAssertEqual($0 as? SDWebImageCoderError, .noCoder(.tiff))
        }
        XCTAssertThrowsError(try manager.decodeImage(from: heic)) {
            XCTAssertEqual($0 as? SDWebImageCoderError, .noCoder(.heic))
            XCTAssertEqual(($0 as NSError).domain, SDWebImageErrorDomain)
        }
        XCTAssertTrue(manager.canDecode(from: tiff), "claimed by the ImageIO coder, as in 4.4.8; no library decodes it")
        XCTAssertFalse(manager.canDecode(from: heic))
        XCTAssertFalse(manager.canEncode(to: .heic))
        XCTAssertNil(
            manager.encodedData(
                with: UIImage(
                    pixelWidth: 1, pixelHeight: 1, pixels: [1, 2, 3, 255],
                    hasAlpha: false), format: .tiff))
    }

    /// Parity: COD-02, COD-10 — each format's coder claims only its own format; the ImageIO coder claims JPEG, PNG
    /// and GIF, not WebP (4.4.8's `canDecodeFromData:` leaves WebP to the WebP coder).
    func test_COD02_eachCoderClaimsItsFormat() throws {
        let samples: [(String, any SDWebImageCoder)] = [
            ("baseline.jpg", SDWebImageJPEGCoder.shared), ("rgba.png", SDWebImagePNGCoder.shared),
            ("animated.gif", SDWebImageGIFCoder.shared), ("lossy.webp", SDWebImageWebPCoder.shared),
        ]
        let formatCoders: [any SDWebImageCoder] = samples.map(\.1)
        for (name, owner) in samples {
            let data = try TestFixtures.data(name)
            for coder in formatCoders {
                XCTAssertEqual(coder.canDecode(from: data), coder === owner, "\(type(of: coder)) on \(name)")
            }
            XCTAssertEqual(
                SDWebImageImageIOCoder.shared.canDecode(from: data), name != "lossy.webp", "ImageIO coder on \(name)")
        }
    }
}
