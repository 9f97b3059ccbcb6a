import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// `UIImage+GIF`, `UIImage+MultiFormat` and `SDScaledImageForKey` (COD-07).
final class COD07_ImageHelpersTests: XCTestCase {
    /// Parity: COD-07 — `sd_animatedGIF(with:)`: animated for several frames, still for one, nil for nil or junk.
    func test_COD07_animatedGIFWithData() throws {
        let animated = try XCTUnwrap(UIImage.sd_animatedGIF(with: try TestFixtures.data("animated.gif")))
        XCTAssertEqual(animated.images?.count, 5)
        XCTAssertTrue(animated.isGIF)
        XCTAssertEqual(animated.sd_imageFormat, .gif)
        let still = try XCTUnwrap(UIImage.sd_animatedGIF(with: try TestFixtures.data("still.gif")))
        XCTAssertFalse(still.isGIF)
        XCTAssertNil(UIImage.sd_animatedGIF(with: nil))
        XCTAssertNil(UIImage.sd_animatedGIF(with: Data("GIF89a junk".utf8)))
        XCTAssertNil(UIImage.sd_animatedGIF(with: try TestFixtures.data("rgba.png")), "only the GIF coder is asked")
    }

    /// Parity: COD-07 — `sd_image(with:)` decodes every supported format through the coders manager.
    func test_COD07_imageWithDataAnyFormat() throws {
        let expected: [(String, SDImageFormat)] = [("baseline.jpg", .jpeg), ("rgba.png", .png), ("animated.gif", .gif),
                                                   ("lossy.webp", .webp), ("animated.webp", .webp), ("png-named.jpg", .png)]
        for (name, format) in expected {
            let image = try XCTUnwrap(UIImage.sd_image(with: try TestFixtures.data(name)), name)
            XCTAssertEqual(image.sd_imageFormat, format, name)
        }
        XCTAssertNil(UIImage.sd_image(with: nil))
        XCTAssertNil(UIImage.sd_image(with: try TestFixtures.data("empty.png")))
        XCTAssertNil(UIImage.sd_image(with: try TestFixtures.data("truncated.jpg")))
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
        XCTAssertEqual(SDScaledImageForKey(nil, image)?.scale, 1)
        XCTAssertNil(SDScaledImageForKey("photo@2x.png", nil))
    }

    /// Parity: COD-07 — an animated image keeps its frames, durations, loop count and format when scaled.
    func test_COD07_scaledAnimatedImageKeepsFrames() throws {
        let animated = try XCTUnwrap(UIImage.sd_animatedGIF(with: try TestFixtures.data("animated.gif")))
        let scaled = try XCTUnwrap(SDScaledImageForKey("https://example.com/banner@2x.gif", animated))
        XCTAssertEqual(scaled.images?.count, 5)
        XCTAssertTrue(scaled.images?.allSatisfy { $0.scale == 2 } ?? false)
        XCTAssertEqual(scaled.frameDurations, animated.frameDurations)
        XCTAssertEqual(scaled.sd_imageLoopCount, 3)
        XCTAssertEqual(scaled.sd_imageFormat, .gif)
        XCTAssertEqual(scaled.size, CGSize(width: 10, height: 10))
    }
}
