import Foundation
import SDPort
import SDPortCacheWorkload
import SDPortTestSupport
import XCTest

/// EXIF orientation (COD-09): `SDImageEXIFOrientation` reads a JPEG's tag with libexif and applies it to the
/// pixels, as 4.4.8's ImageIO coder hands the orientation to UIKit (`SDWebImageImageIOCoder.m`,
/// `SDWebImageCoderHelper.m`'s `imageOrientationFromEXIFOrientation:`).
final class COD09_EXIFOrientationTests: XCTestCase {
    /// The picture every orientation-N.jpg shows once its tag is applied (Fixtures/README.md): 4×2 blocks of 16×16.
    private static let upright: [[(Int, Int, Int)]] = [
        [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)],
        [(0, 0, 0), (255, 255, 0), (0, 255, 255), (255, 0, 255)],
    ]

    /// Parity: COD-09 — the tag of each fixture is read (1…8, big-endian EXIF); no tag, garbage or data cut
    /// inside the EXIF segment read as `.up`.
    func test_COD09_readsTheOrientationTag() throws {
        for n in 1...8 {
            let data = try TestFixtures.data("orientation-\(n).jpg")
            XCTAssertEqual(SDImageEXIFOrientation.of(jpegData: data).rawValue, n, "orientation-\(n).jpg")
        }
        XCTAssertEqual(SDImageEXIFOrientation.of(jpegData: try TestFixtures.data("baseline.jpg")), .up, "no EXIF")
        XCTAssertEqual(SDImageEXIFOrientation.of(jpegData: try TestFixtures.data("truncated.jpg")), .up)
        XCTAssertEqual(SDImageEXIFOrientation.of(jpegData: try TestFixtures.data("corrupt.jpg")), .up)
        XCTAssertEqual(SDImageEXIFOrientation.of(jpegData: try TestFixtures.data("rgba.png")), .up, "not a JPEG")
        XCTAssertEqual(SDImageEXIFOrientation.of(jpegData: Data()), .up)
        XCTAssertEqual(SDImageEXIFOrientation.of(jpegData: Data("garbage, not an image at all".utf8)), .up)

        let six = try TestFixtures.data("orientation-6.jpg")
        // The APP1 segment starts at byte 20 (after SOI and JFIF's APP0) and says how long it is.
        let app1End = 22 + Int(six[22]) << 8 + Int(six[23])
        XCTAssertEqual(Array(six[24..<28]), Array("Exif".utf8), "the fixture's layout, as the test expects it")
        for length in 0..<app1End {
            XCTAssertEqual(SDImageEXIFOrientation.of(jpegData: six.prefix(length)), .up, "cut at \(length) bytes")
        }
        XCTAssertEqual(SDImageEXIFOrientation.of(jpegData: six.prefix(app1End)), .right, "the whole segment is enough")
        XCTAssertEqual(SDImageEXIFOrientation.of(jpegData: six.subdata(in: 24..<app1End)), .right, "raw EXIF data")

        // A value outside 1…8 is invalid: `.up`. Byte 49 is the low byte of the entry's value (big-endian).
        var nine = six
        XCTAssertEqual(nine[49], 6)
        nine[49] = 9
        XCTAssertEqual(SDImageEXIFOrientation.of(jpegData: nine), .up)
        nine[49] = 0
        XCTAssertEqual(SDImageEXIFOrientation.of(jpegData: nine), .up)
    }

    /// Parity: COD-09 — malformed bytes never crash the reader: 1,500 seeded mutations of an EXIF-bearing JPEG
    /// (in the EXIF segment and anywhere), random bytes behind a JPEG or EXIF header, and random cuts.
    func test_COD09_fuzzedExifNeverCrashes() throws {
        var random = SeededGenerator(seed: 0xE81F_0009)
        let originals = try (1...8).map { [UInt8](try TestFixtures.data("orientation-\($0).jpg")) }
        var readTags = 0
        for round in 0..<1500 {
            var bytes = originals[round % 8]
            switch round % 5 {
            case 0:  // damage the EXIF segment (bytes 20..<56): lengths, byte order, offsets, counts, types
                for _ in 0..<Int.random(in: 1...6, using: &random) {
                    bytes[Int.random(in: 20..<56, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
            case 1:  // damage anywhere
                for _ in 0..<Int.random(in: 1...12, using: &random) {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
            case 2:  // a JPEG and APP1 header followed by noise
                bytes =
                    [
                        0xFF, 0xD8, 0xFF, 0xE1, UInt8.random(in: 0...255, using: &random),
                        UInt8.random(in: 0...255, using: &random),
                    ]
                    + Array("Exif\0\0".utf8)
                    + (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random)
                    }
            case 3:  // raw EXIF: the header, a TIFF byte order mark, then noise
                bytes =
                    Array("Exif\0\0".utf8)
                    + (Bool.random(using: &random) ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00])
                    + (0..<Int.random(in: 0...200, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random)
                    }
            default:  // cut anywhere
                bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random)))
            }
            let orientation = SDImageEXIFOrientation.of(jpegData: Data(bytes))
            XCTAssertTrue(SDImageEXIFOrientation.allCases.contains(orientation))
            if orientation != .up { readTags += 1 }
        }
        XCTAssertGreaterThan(readTags, 0, "some mutations leave the tag readable: the reader was really exercised")
    }

    /// Parity: COD-09 — every fixture, decoded by the JPEG coder (stored pixels) and then turned by its tag, shows
    /// the same upright 64×32 picture: each block's colour is checked, not only the size.
    func test_COD09_appliedOrientationShowsTheUprightPicture() throws {
        for n in 1...8 {
            let data = try TestFixtures.data("orientation-\(n).jpg")
            let stored = try SDWebImageJPEGCoder.shared.decodeImage(from: data)
            XCTAssertEqual(stored.pixelWidth, n >= 5 ? 32 : 64, "orientation-\(n).jpg is stored turned")
            let orientation = SDImageEXIFOrientation.of(jpegData: data)
            let shown = orientation.applied(to: stored)
            XCTAssertEqual(shown.pixelWidth, 64, "orientation-\(n).jpg")
            XCTAssertEqual(shown.pixelHeight, 32, "orientation-\(n).jpg")
            XCTAssertEqual(shown.bytesPerRow, 64 * 4)
            XCTAssertEqual(shown.sd_imageFormat, .jpeg)
            XCTAssertFalse(shown.hasAlpha)
            guard shown.pixelWidth == 64, shown.pixelHeight == 32 else { continue }
            for by in 0..<2 {
                for bx in 0..<4 {
                    let (r, g, b) = Self.upright[by][bx]
                    // Block centres and corners: corners catch an off-by-one row or column in the transform.
                    for (x, y) in [
                        (bx * 16 + 8, by * 16 + 8), (bx * 16 + 2, by * 16 + 2), (bx * 16 + 13, by * 16 + 13),
                    ] {
                        CODFixturePixels.assertPixel(shown, x: x, y: y, (r, g, b, 255), tolerance: 24)
                    }
                }
            }
        }
    }

    /// Checks the upright 64×32 picture, block by block.
    private func assertUpright(_ image: UIImage?, _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let image else { return XCTFail("\(label): no image", file: file, line: line) }
        XCTAssertEqual([image.pixelWidth, image.pixelHeight], [64, 32], label, file: file, line: line)
        guard image.pixelWidth == 64, image.pixelHeight == 32 else { return }
        for by in 0..<2 {
            for bx in 0..<4 {
                let (r, g, b) = Self.upright[by][bx]
                CODFixturePixels.assertPixel(image, x: bx * 16 + 8, y: by * 16 + 8, (r, g, b, 255), tolerance: 24)
            }
        }
    }

    /// Parity: COD-09, COD-10 — the default coders (the ImageIO coder) apply the orientation when decoding, as
    /// ImageIO does: every fixture decodes to the upright picture through `SDWebImageCodersManager.shared`.
    func test_COD09_defaultCodersDecodeUpright() throws {
        for n in 1...8 {
            let data = try TestFixtures.data("orientation-\(n).jpg")
            assertUpright(try SDWebImageCodersManager.shared.decodeImage(from: data), "orientation-\(n).jpg")
        }
    }

    /// Parity: COD-09 — progressive decoding applies it too: a partial decode (all but the last bytes) and the
    /// finished one are upright, for every orientation.
    func test_COD09_progressiveDecodesAreUpright() throws {
        for n in 1...8 {
            let data = try TestFixtures.data("orientation-\(n).jpg")
            let coder = SDWebImageImageIOCoder()
            let partial = coder.incrementallyDecodedImage(with: data.prefix(data.count - 2), finished: false)
            XCTAssertEqual(partial.map { [$0.pixelWidth, $0.pixelHeight] }, [64, 32], "partial orientation-\(n).jpg")
            assertUpright(coder.incrementallyDecodedImage(with: data, finished: true), "finished orientation-\(n).jpg")
        }
    }

    /// Parity: COD-09 — kept when encoding: the decoded picture is upright, so encoding it (JPEG or PNG, through
    /// the ImageIO coder) and decoding again shows the same upright picture. (ImageIO writes the tag beside the
    /// stored pixels instead; both show the same picture.)
    func test_COD09_encodingKeepsTheOrientation() throws {
        for n in [3, 6, 8] {
            let decoded = try SDWebImageImageIOCoder.shared.decodeImage(
                from: try TestFixtures.data("orientation-\(n).jpg"))
            for format in [SDImageFormat.jpeg, .png] {
                let encoded = try XCTUnwrap(SDWebImageImageIOCoder.shared.encodedData(with: decoded, format: format))
                assertUpright(
                    try SDWebImageImageIOCoder.shared.decodeImage(from: encoded), "orientation-\(n) as \(format)")
            }
        }
    }

    /// Parity: COD-09 — `.up` returns the image itself; the others make a new bitmap keeping scale, format,
    /// alpha; an image with padded rows (bytesPerRow larger than needed) is read correctly.
    func test_COD09_applyingKeepsScaleFormatAndAlpha() {
        let image = Self.synthetic(width: 3, height: 2, padding: 8, hasAlpha: true, scale: 2)
        XCTAssertTrue(SDImageEXIFOrientation.up.applied(to: image) === image)
        let right = SDImageEXIFOrientation.right.applied(to: image)
        XCTAssertEqual(right.pixelWidth, 2)
        XCTAssertEqual(right.pixelHeight, 3)
        XCTAssertEqual(right.scale, 2)
        XCTAssertEqual(right.sd_imageFormat, .png)
        XCTAssertTrue(right.hasAlpha)
        // Rotated 90° clockwise: the stored bottom-left pixel is now top-left, the stored top-left is top-right.
        XCTAssertTrue(right.pixel(x: 0, y: 0) == image.pixel(x: 0, y: 1))
        XCTAssertTrue(right.pixel(x: 1, y: 0) == image.pixel(x: 0, y: 0))
        XCTAssertTrue(right.pixel(x: 1, y: 2) == image.pixel(x: 2, y: 0))
    }

    /// Parity: COD-09 — applying each orientation and then its inverse gives the original pixels back (rotations
    /// by 90° undo each other; flips, 180°, transpose and transverse undo themselves).
    func test_COD09_orientationThenInverseRoundTrips() {
        let inverse: [SDImageEXIFOrientation: SDImageEXIFOrientation] = [
            .up: .up, .upMirrored: .upMirrored, .down: .down, .downMirrored: .downMirrored,
            .leftMirrored: .leftMirrored, .right: .left, .rightMirrored: .rightMirrored, .left: .right,
        ]
        for padding in [0, 12] {
            let image = Self.synthetic(width: 5, height: 3, padding: padding, hasAlpha: false, scale: 1)
            let tight = Self.synthetic(width: 5, height: 3, padding: 0, hasAlpha: false, scale: 1)
            var distinct = Set<[UInt8]>()
            for orientation in SDImageEXIFOrientation.allCases {
                let turned = orientation.applied(to: image)
                distinct.insert(turned.pixels + [UInt8(turned.pixelWidth)])
                let back = inverse[orientation]!.applied(to: turned)
                XCTAssertEqual(back.pixelWidth, 5, "\(orientation)")
                XCTAssertEqual(back.pixelHeight, 3, "\(orientation)")
                if orientation == .up {
                    XCTAssertTrue(back === image)
                } else {
                    XCTAssertEqual(
                        back.pixels, tight.pixels, "\(orientation) then \(inverse[orientation]!), padding \(padding)")
                }
            }
            XCTAssertEqual(distinct.count, 8, "the eight orientations give eight different bitmaps")
        }
    }

    /// A `width`×`height` image whose every pixel is different (RGBA from its position), rows padded by `padding` bytes.
    private static func synthetic(width: Int, height: Int, padding: Int, hasAlpha: Bool, scale: CGFloat) -> UIImage {
        let rowBytes = width * 4 + padding
        var pixels = [UInt8](repeating: 0xEE, count: rowBytes * height)
        for y in 0..<height {
            for x in 0..<width {
                let i = y * rowBytes + x * 4
                pixels[i] = UInt8(x * 40 + 10)
                pixels[i + 1] = UInt8(y * 60 + 20)
                pixels[i + 2] = UInt8((x + y * width) * 7)
                pixels[i + 3] = hasAlpha ? UInt8(255 - x * 20) : 255
            }
        }
        return UIImage(
            pixelWidth: width, pixelHeight: height, pixels: pixels, bytesPerRow: rowBytes,
            hasAlpha: hasAlpha, scale: scale, format: hasAlpha ? .png : .jpeg)
    }
}
