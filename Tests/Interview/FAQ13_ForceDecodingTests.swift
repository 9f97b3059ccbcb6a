import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// Proves FAQ-13: the card is `Docs/knowledge/faq/FAQ-13.json` (question, answer, citations; `sdport faq 13` prints
/// it).
///
/// Force-decodes a JPEG fixture (4 packed bytes per pixel, alpha skipped) and a PNG with alpha (kept); a GIF with the
/// default coders (a still, force-decoded) and with the GIF coder added (animated, returned untouched); checks the
/// scale-down size for 5250×3450 and the scale-down of a small image under a small limit; stores a GIF in a temporary
/// cache and checks that the image read back from disk is a still, force-decoded one.
final class FAQ13_ForceDecodingTests: XCTestCase {
    /// Parity: FAQ-13 — 8 bits per component, 4 bytes per pixel, alpha skipped for opaque images; animated
    /// images untouched; large images scaled down under the 60 MB limit when asked. (4.4.8 does this on iOS,
    /// tvOS and watchOS; on macOS its coder returns the image as it is.)
    func test_FAQ13_forceDecodingMakesA32BitBitmapAndSkipsAnimatedImages() throws {
        XCTAssertEqual(SDWebImageCoderHelper.bitsPerComponent, 8)
        XCTAssertEqual(SDWebImageCoderHelper.bytesPerPixel, 4)
        XCTAssertEqual(SDWebImageCoderHelper.destTotalPixels, 60 * 1024 * 1024 / 4)

        let jpeg = try SDWebImageCodersManager.shared.decodeImage(from: try TestFixtures.data("baseline.jpg"))
        var data: Data? = try TestFixtures.data("baseline.jpg")
        let decoded = try XCTUnwrap(
            SDWebImageCodersManager.shared.decompressedImage(with: jpeg, data: &data, options: nil))
        XCTAssertTrue(decoded.sd_isDecoded)
        XCTAssertEqual(decoded.bytesPerRow, decoded.pixelWidth * 4, "4 bytes per pixel, packed")
        XCTAssertEqual(decoded.pixels.count, decoded.pixelWidth * decoded.pixelHeight * 4)
        XCTAssertFalse(decoded.hasAlpha, "an opaque JPEG: alpha skipped")
        XCTAssertTrue(stride(from: 3, to: decoded.pixels.count, by: 4).allSatisfy { decoded.pixels[$0] == 255 })

        let png = try SDWebImageCodersManager.shared.decodeImage(from: try TestFixtures.data("rgba.png"))
        var pngData: Data? = try TestFixtures.data("rgba.png")
        XCTAssertTrue(
            try XCTUnwrap(SDWebImageCodersManager.shared.decompressedImage(with: png, data: &pngData, options: nil))
                .hasAlpha,
            "an image with alpha keeps it")

        // A GIF with 4.4.8's default coders is, under UIKit, its first frame, a still image, so it IS
        // force-decoded; with the animated GIF coder added it is animated and left untouched.
        let gifData = try TestFixtures.data("animated.gif")
        let defaults = SDWebImageCodersManager()
        var stillData: Data? = gifData
        let still = try defaults.decodeImage(from: gifData)
        XCTAssertEqual(
            try XCTUnwrap(defaults.decompressedImage(with: still, data: &stillData, options: nil)).sd_isDecoded, true,
            "the default set's still GIF is force-decoded")
        let withGIFCoder = SDWebImageCodersManager()
        withGIFCoder.addCoder(SDWebImageGIFCoder.shared)
        let gif = try withGIFCoder.decodeImage(from: gifData)
        XCTAssertEqual(gif.distinctFrames.count, 5)
        var animatedData: Data? = gifData
        XCTAssertTrue(
            withGIFCoder.decompressedImage(with: gif, data: &animatedData, options: nil) === gif,
            "animated images are not force-decoded")
        // The rule itself (`+shouldDecodeImage:`), which every coder's force decoding goes through.
        XCTAssertFalse(SDWebImageCoderHelper.shouldDecodeImage(gif), "shouldDecodeImage refuses animated images")
        XCTAssertTrue(SDWebImageCoderHelper.decompressedImage(gif) === gif)

        // The default limit: a 5250×3450 image (the original's TestImageLarge.jpg) becomes 4892×3214.
        let size = SDWebImageCoderHelper.scaledDownSize(width: 5250, height: 3450)
        XCTAssertEqual([size.width, size.height], [4892, 3214])
        // The same rule on a small image with a small limit (cheap enough for a debug build).
        let photo = UIImage(
            pixelWidth: 400, pixelHeight: 300, pixels: [UInt8](repeating: 255, count: 400 * 300 * 4), hasAlpha: false)
        let scaled = try XCTUnwrap(SDWebImageCoderHelper.decompressedAndScaledDownImage(photo, limitPixels: 30_000))
        XCTAssertEqual([scaled.pixelWidth, scaled.pixelHeight], [200, 150], "sqrt(30000 / 120000) = 0.5, aspect kept")
        XCTAssertTrue(scaled.sd_isDecoded)
    }

    /// Parity: FAQ-13 — the disk path: a GIF read back from the disk cache with the default coders is a still
    /// image and comes back force-decoded (4.4.8's `diskImageForKey:` decompresses whatever the coder made
    /// while `shouldDecompressImages` is on, the default).
    func test_FAQ13_gifFromDiskIsForceDecodedWithTheDefaultCoders() throws {
        let directory = try TemporaryDirectory(prefix: "faq13-disk")
        defer { directory.remove() }
        let cache = SDImageCache(namespace: "faq13", diskCacheDirectory: directory.path)
        cache.storeImageData(toDisk: try TestFixtures.data("animated.gif"), forKey: "http://faq13.test/a.gif")
        let image = try XCTUnwrap(cache.imageFromDiskCache(forKey: "http://faq13.test/a.gif"))
        XCTAssertNil(image.images, "still: the default coders decode the first frame")
        XCTAssertTrue(image.sd_isDecoded, "and force-decode it like any still image")
        XCTAssertEqual(image.sd_imageFormat, .gif)
    }
}
