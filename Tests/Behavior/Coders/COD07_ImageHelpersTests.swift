import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// `UIImage+GIF`, `UIImage+MultiFormat` and `SDScaledImageForKey` (COD-07).
final class COD07_ImageHelpersTests: XCTestCase {
    /// Parity: COD-07 — `sd_animatedGIF(with:)`: animated for several frames, still for one, nil for nil or junk.
    func test_COD07_animatedGIFWithData() throws {
        let animated = try XCTUnwrap(UIImage.sd_animatedGIF(with: try TestFixtures.data("animated.gif")))
        XCTAssertEqual(animated.distinctFrames.count, 5)
        XCTAssertTrue(animated.isGIF)
        XCTAssertEqual(animated.sd_imageFormat, .gif)
        let still = try XCTUnwrap(UIImage.sd_animatedGIF(with: try TestFixtures.data("still.gif")))
        XCTAssertFalse(still.isGIF)
        XCTAssertNil(UIImage.sd_animatedGIF(with: nil))
        XCTAssertNil(UIImage.sd_animatedGIF(with: Data("GIF89a junk".utf8)))
    }

    /// Parity: COD-14 — `sd_animatedGIF(with:)` with data that is not a GIF gives a still image, as 4.4.8's GIF coder
    /// hands data with at most one frame to `initWithData:` (`SDWebImageGIFCoder.m:53-54`); nil data is still nil,
    /// and data no coder reads is nil.
    func test_COD14_animatedGIFWithStillDataGivesAStillImage() throws {
        for (name, format, width) in [("rgba.png", SDImageFormat.png, 32), ("baseline.jpg", .jpeg, 256)] {
            let expected = try SDWebImageCodersManager.shared.decodeImage(from: TestFixtures.data(name))
            let image = try XCTUnwrap(UIImage.sd_animatedGIF(with: try TestFixtures.data(name)), name)
            XCTAssertEqual(image.pixelWidth, width, name)
            XCTAssertNil(image.images, "\(name): still")
            XCTAssertFalse(image.isGIF, name)
            XCTAssertEqual(image.sd_imageFormat, format, name)
            XCTAssertEqual(image.pixels, expected.pixels, name)
        }
        XCTAssertNil(UIImage.sd_animatedGIF(with: nil))
        XCTAssertNil(UIImage.sd_animatedGIF(with: Data("not an image".utf8)))
        XCTAssertNil(UIImage.sd_animatedGIF(with: try TestFixtures.data("corrupt.jpg")))
    }

    /// Parity: COD-07 — `sd_image(with:)` decodes every supported format through the coders manager.
    func test_COD07_imageWithDataAnyFormat() throws {
        let expected: [(String, SDImageFormat)] = [
            ("baseline.jpg", .jpeg), ("rgba.png", .png), ("animated.gif", .gif),
            ("lossy.webp", .webp), ("animated.webp", .webp), ("png-named.jpg", .png),
        ]
        for (name, format) in expected {
            let image = try XCTUnwrap(UIImage.sd_image(with: try TestFixtures.data(name)), name)
            XCTAssertEqual(image.sd_imageFormat, format, name)
        }
        XCTAssertNil(UIImage.sd_image(with: nil))
        XCTAssertNil(UIImage.sd_image(with: try TestFixtures.data("empty.png")))
        XCTAssertNil(UIImage.sd_image(with: try TestFixtures.data("corrupt.jpg")))
        XCTAssertEqual(
            UIImage.sd_image(with: try TestFixtures.data("truncated.jpg"))?.pixelWidth, 256,
            "a JPEG cut short decodes at its full size, as ImageIO decodes it (COD-13)")
    }

    /// Parity: COD-07 — `sd_imageData()` picks PNG for alpha and JPEG otherwise; `sd_imageData(as:)` any format.
    func test_COD07_imageDataAsFormat() throws {
        let rgba = try XCTUnwrap(UIImage.sd_image(with: try TestFixtures.data("rgba.png")))
        let opaque = try XCTUnwrap(UIImage.sd_image(with: try TestFixtures.data("gradient.png")))
        XCTAssertEqual(Data.sd_imageFormat(forImageData: rgba.sd_imageData()), .png)
        XCTAssertEqual(Data.sd_imageFormat(forImageData: opaque.sd_imageData()), .jpeg)
        for format in [SDImageFormat.jpeg, .png, .gif, .webp] {
            let data = try XCTUnwrap(opaque.sd_imageData(as: format), "\(format)")
            let back = try XCTUnwrap(UIImage.sd_image(with: data))
            XCTAssertEqual(back.sd_imageFormat, format)
            XCTAssertEqual(back.pixelWidth, 256)
        }
        XCTAssertNil(opaque.sd_imageData(as: .tiff))
        XCTAssertNil(opaque.sd_imageData(as: .heic))
    }

    /// Parity: COD-07 — `SDScaledImageForKey`: "@2x." gives scale 2, "@3x." scale 3, size in points divided.
    func test_COD07_scaledImageForKey() throws {
        let image = try XCTUnwrap(UIImage.sd_image(with: try TestFixtures.data("photo@2x.png")))
        XCTAssertEqual(image.scale, 1)
        let twice = try XCTUnwrap(SDScaledImageForKey("https://example.com/photo@2x.png", image))
        XCTAssertEqual(twice.scale, 2)
        XCTAssertEqual(twice.size, CGSize(width: 10, height: 5))
        XCTAssertEqual(twice.pixels, image.pixels)
        XCTAssertEqual(twice.sd_imageFormat, .png)
        XCTAssertEqual(SDScaledImageForKey("icon@3x.png", image)?.scale, 3)
        XCTAssertEqual(SDScaledImageForKey("photo.png", image)?.scale, 1)
        XCTAssertEqual(SDScaledImageForKey("a@2x.pn", image)?.scale, 1, "keys under 8 characters are never scaled")
        // 4.4.8 counts `key.length`, UTF-16 units (`SDWebImageCompat.m:48`): an emoji is two, so this 7-character
        // key is 8 long and scales.
        XCTAssertEqual(SDScaledImageForKey("\u{1F600}@2x.pn", image)?.scale, 2, "an emoji counts two UTF-16 units")
        XCTAssertEqual(SDScaledImageForKey(nil, image)?.scale, 1)
        XCTAssertNil(SDScaledImageForKey("photo@2x.png", nil))
    }

    /// Parity: COD-07 — an animated image keeps its frames, durations, loop count and format when scaled.
    func test_COD07_scaledAnimatedImageKeepsFrames() throws {
        let animated = try XCTUnwrap(UIImage.sd_animatedGIF(with: try TestFixtures.data("animated.gif")))
        let scaled = try XCTUnwrap(SDScaledImageForKey("https://example.com/banner@2x.gif", animated))
        XCTAssertEqual(scaled.distinctFrames.count, 5)
        XCTAssertTrue(scaled.images?.allSatisfy { $0.scale == 2 } ?? false)
        XCTAssertEqual(scaled.frameDurations, animated.frameDurations)
        XCTAssertEqual(scaled.sd_imageLoopCount, 3)
        XCTAssertEqual(scaled.sd_imageFormat, .gif)
        XCTAssertEqual(scaled.size, CGSize(width: 10, height: 10))
    }

    // MARK: COD-12

    /// A 2×1 still image of one colour.
    private func frameImage(_ red: UInt8) -> UIImage {
        UIImage(pixelWidth: 2, pixelHeight: 1, pixels: [red, 0, 0, 255, red, 0, 0, 255], hasAlpha: false)
    }

    /// Parity: COD-12 — `animatedImage(with:)` holds frames as UIKit does: each repeated duration/gcd times in
    /// `images` (100 and 200 ms: gcd 100, so 1 + 2 entries), one duration for the whole, a repeat being the same
    /// object (no bitmap copied); the memory cost counts every entry (`UIImage+MemoryCacheCost.m:16-17`), and
    /// `frames(from:)` merges the runs back (`SDWebImageCoderHelper.m:26-128`).
    func test_COD12_framesAreRepeatedByTheGreatestCommonDivisor() throws {
        let first = frameImage(10)
        let second = frameImage(20)
        let animated = try XCTUnwrap(
            SDWebImageCoderHelper.animatedImage(with: [
                SDWebImageFrame(image: first, duration: 0.1), SDWebImageFrame(image: second, duration: 0.2),
            ]))
        let images = try XCTUnwrap(animated.images)
        XCTAssertEqual(images.count, 3)
        XCTAssertTrue(images[0] === first)
        XCTAssertTrue(images[1] === second && images[2] === second, "a repeat is the same object")
        XCTAssertEqual(animated.duration, 0.3, accuracy: 1e-9)
        XCTAssertEqual(animated.sd_memoryCost, 2 * 3, "pixels times images.count")

        let frames = try XCTUnwrap(SDWebImageCoderHelper.frames(from: animated))
        XCTAssertEqual(frames.count, 2)
        XCTAssertTrue(frames[0].image === first && frames[1].image === second)
        XCTAssertEqual(frames[0].duration, 0.1, accuracy: 1e-9)
        XCTAssertEqual(frames[1].duration, 0.2, accuracy: 1e-9)
    }

    /// Parity: COD-12 — the edge cases as 4.4.8 has them: durations under a millisecond give a gcd of 0, so each
    /// frame appears once (and `frames(from:)` gives 100 ms each); an animated image of one entry gives no frames
    /// (4.4.8's loop adds frames from the second entry on); no frames give no image.
    func test_COD12_edgeCasesFollowTheOriginal() throws {
        let zero = try XCTUnwrap(
            SDWebImageCoderHelper.animatedImage(with: [
                SDWebImageFrame(image: frameImage(1), duration: 0),
                SDWebImageFrame(image: frameImage(2), duration: 0.0004),
            ]))
        XCTAssertEqual(zero.images?.count, 2)
        XCTAssertEqual(zero.duration, 0)
        XCTAssertEqual(SDWebImageCoderHelper.frames(from: zero)?.map(\.duration), [0.1, 0.1])

        let single = try XCTUnwrap(UIImage(animatedImages: [frameImage(3)], duration: 1))
        XCTAssertEqual(SDWebImageCoderHelper.frames(from: single)?.count, 0)
        XCTAssertNil(SDWebImageCoderHelper.animatedImage(with: []))
        XCTAssertNil(SDWebImageCoderHelper.frames(from: frameImage(4)), "a still image has no frames")
    }

    /// Parity: COD-12 — a decoded GIF with uneven delays (100, 200, 100, 100, 70 ms: gcd 10) holds 57 entries that
    /// are 5 distinct bitmaps, and scaling it for an @2x key keeps one object per frame.
    func test_COD12_decodedGIFRepeatsFramesWithoutCopies() throws {
        let animated = try XCTUnwrap(UIImage.sd_animatedGIF(with: try TestFixtures.data("animated.gif")))
        let images = try XCTUnwrap(animated.images)
        XCTAssertEqual(images.count, 57)
        XCTAssertEqual(Set(images.map(ObjectIdentifier.init)).count, 5, "5 bitmaps")
        XCTAssertEqual(animated.duration, 0.57, accuracy: 1e-9)
        let scaled = try XCTUnwrap(SDScaledImageForKey("https://example.com/banner@2x.gif", animated))
        XCTAssertEqual(Set(try XCTUnwrap(scaled.images).map(ObjectIdentifier.init)).count, 5)
        XCTAssertEqual(scaled.frameDurations.map { ($0 * 1000).rounded() }, [100, 200, 100, 100, 70])
    }

    // MARK: COD-11

    /// Parity: COD-11 — `UIImage.decodedImage(with:)` force-decodes through the shared coders manager (a new,
    /// decoded bitmap), leaves an animated image as it is and answers nil for nil; `decodedAndScaledDownImage(with:)`
    /// also scales an image over 60 MB of pixels under the limit (`UIImage+ForceDecode.m:14-28`; 4.4.8's coder
    /// does both on iOS, tvOS and watchOS only).
    func test_COD11_forceDecodeCategory() throws {
        let png = try XCTUnwrap(UIImage.sd_image(with: try TestFixtures.data("rgba.png")))
        let decoded = try XCTUnwrap(UIImage.decodedImage(with: png))
        XCTAssertTrue(decoded.sd_isDecoded)
        XCTAssertEqual(decoded.pixelWidth, png.pixelWidth)
        XCTAssertEqual(decoded.pixelHeight, png.pixelHeight)
        // A new image, as 4.4.8 draws the input into a new bitmap context (`SDWebImageImageIOCoder.m:229-243`): another
        // instance, marked decoded, with the same picture, the input left as it was. (The pixels are an immutable
        // Swift array, so the two may share storage: neither can be written, as with a fresh bitmap.)
        XCTAssertFalse(decoded === png, "a new image, not the input")
        XCTAssertFalse(png.sd_isDecoded, "the input is not marked")
        XCTAssertEqual(decoded.pixels, png.pixels, "the same picture")
        XCTAssertNil(UIImage.decodedImage(with: nil))
        XCTAssertNil(UIImage.decodedAndScaledDownImage(with: nil))
        let animated = try XCTUnwrap(UIImage.sd_animatedGIF(with: try TestFixtures.data("animated.gif")))
        XCTAssertTrue(UIImage.decodedImage(with: animated) === animated, "animated images are not decoded")

        let large = try XCTUnwrap(UIImage.sd_image(with: try TestFixtures.data("large.png")))
        XCTAssertEqual(UIImage.decodedImage(with: large)?.pixelWidth, large.pixelWidth, "no scale-down asked")
        let small = try XCTUnwrap(UIImage.decodedAndScaledDownImage(with: large))
        XCTAssertLessThanOrEqual(small.pixelWidth * small.pixelHeight, SDWebImageCoderHelper.destTotalPixels)
        XCTAssertLessThan(small.pixelWidth, large.pixelWidth)
    }
}
