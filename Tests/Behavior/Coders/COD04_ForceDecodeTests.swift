import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// Force decoding per FAQ-13 (COD-04): `SDWebImageCoderHelper.decompressedImage` and the coders' and manager's
/// `decompressedImage(with:data:options:)`.
final class COD04_ForceDecodeTests: XCTestCase {
    /// Parity: COD-04 — an opaque image becomes a packed 8-bit, 4-bytes-per-pixel bitmap with alpha skipped.
    func test_COD04_opaqueImageIsPackedWithAlphaSkipped() {
        // 3×2 opaque image with padded rows (16 bytes per row) and junk in the padding and alpha bytes.
        var pixels = [UInt8](repeating: 0xEE, count: 32)
        for y in 0..<2 {
            for x in 0..<3 {
                let i = y * 16 + x * 4
                pixels[i] = UInt8(10 * x)
                pixels[i + 1] = UInt8(20 * y)
                pixels[i + 2] = 7
                pixels[i + 3] = 3
            }
        }
        let image = UIImage(
            pixelWidth: 3, pixelHeight: 2, pixels: pixels, bytesPerRow: 16, hasAlpha: false, scale: 2, format: .jpeg)
        let decoded = SDWebImageCoderHelper.decompressedImage(image)!
        XCTAssertFalse(decoded === image)
        XCTAssertEqual(decoded.bytesPerRow, 3 * SDWebImageCoderHelper.bytesPerPixel)
        XCTAssertEqual(decoded.pixels.count, 3 * 2 * 4)
        XCTAssertEqual(SDWebImageCoderHelper.bitsPerComponent, 8)
        XCTAssertFalse(decoded.hasAlpha)
        XCTAssertTrue(decoded.sd_isDecoded)
        XCTAssertFalse(image.sd_isDecoded, "the original is left alone")
        XCTAssertEqual(decoded.scale, 2)
        XCTAssertEqual(decoded.sd_imageFormat, .jpeg)
        for y in 0..<2 {
            for x in 0..<3 {
                let p = decoded.pixel(x: x, y: y)
                XCTAssertEqual([p.r, p.g, p.b, p.a], [UInt8(10 * x), UInt8(20 * y), 7, 255])
            }
        }
    }

    /// Parity: COD-04 — an image with alpha keeps it; decoding twice returns the decoded image itself.
    func test_COD04_alphaKeptAndDecodedOnlyOnce() throws {
        let rgba = try SDWebImagePNGCoder.shared.decodeImage(from: try TestFixtures.data("rgba.png"))
        let decoded = try XCTUnwrap(SDWebImageCoderHelper.decompressedImage(rgba))
        XCTAssertTrue(decoded.hasAlpha)
        XCTAssertEqual(decoded.pixels, rgba.pixels)
        XCTAssertTrue(SDWebImageCoderHelper.decompressedImage(decoded) === decoded, "sd_isDecoded: nothing to do")
        XCTAssertNil(SDWebImageCoderHelper.decompressedImage(nil))
    }

    /// Parity: COD-04 — animated images are not force-decoded (returned untouched), by the helper and the coders.
    func test_COD04_animatedImagesAreUntouched() throws {
        let data = try TestFixtures.data("animated.gif")
        let manager = AnimatedGIFCoding.manager()
        let animated = try manager.decodeImage(from: data)
        XCTAssertFalse(SDWebImageCoderHelper.shouldDecodeImage(animated))
        XCTAssertTrue(SDWebImageCoderHelper.decompressedImage(animated) === animated)
        var gifData: Data? = data
        XCTAssertTrue(manager.decompressedImage(with: animated, data: &gifData, options: nil) === animated)
        XCTAssertEqual(gifData, data)
        let webp = try SDWebImageCodersManager.shared.decodeImage(from: try TestFixtures.data("animated.webp"))
        var webpData: Data? = try TestFixtures.data("animated.webp")
        XCTAssertTrue(
            SDWebImageWebPCoder.shared.decompressedImage(
                with: webp, data: &webpData,
                options: [SDWebImageCoderScaleDownLargeImagesKey: true]) === webp)
    }

    /// Parity: COD-04 — each still-image coder force-decodes through the helper; the GIF coder never does.
    func test_COD04_codersForceDecode() throws {
        let cases: [(String, any SDWebImageCoder)] = [
            ("baseline.jpg", SDWebImageJPEGCoder.shared), ("rgba.png", SDWebImagePNGCoder.shared),
            ("lossy.webp", SDWebImageWebPCoder.shared),
        ]
        for (name, coder) in cases {
            var data: Data? = try TestFixtures.data(name)
            let image = try coder.decodeImage(from: data!)
            XCTAssertFalse(image.sd_isDecoded, name)
            let decoded = try XCTUnwrap(coder.decompressedImage(with: image, data: &data, options: nil), name)
            XCTAssertTrue(decoded.sd_isDecoded, name)
            XCTAssertEqual(decoded.pixels, image.pixels, name)
            XCTAssertEqual(data, try TestFixtures.data(name), "no scaling, so the data stays")
        }
        let still = try SDWebImageGIFCoder.shared.decodeImage(from: try TestFixtures.data("still.gif"))
        var gifData: Data? = try TestFixtures.data("still.gif")
        XCTAssertTrue(SDWebImageGIFCoder.shared.decompressedImage(with: still, data: &gifData, options: nil) === still)
    }
}
