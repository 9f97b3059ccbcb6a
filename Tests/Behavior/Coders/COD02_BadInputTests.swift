import Foundation
import SDPort
import SDPortCacheWorkload
import SDPortTestSupport
import XCTest

/// Truncated (with nothing of the picture), corrupt, empty, random and oversized input: every decoder throws a
/// clear `SDWebImageCoderError` and the process survives (libjpeg's and libpng's longjmp stay in C; giflib and libwebp return errors).
final class COD02_BadInputTests: XCTestCase {
    /// The default set plus the animated GIF coder, so every library's decoder is reached.
    private let manager = AnimatedGIFCoding.manager()
    private let allCoders: [any SDWebImageCoder] = [
        SDWebImagePNGCoder(), SDWebImageJPEGCoder(), SDWebImageGIFCoder(),
        SDWebImageWebPCoder(), SDWebImageImageIOCoder(),
    ]

    private func decodeError(_ data: Data, by coder: any SDWebImageCoder) -> SDWebImageCoderError? {
        do {
            _ = try coder.decodeImage(from: data)
            return nil
        } catch let error as SDWebImageCoderError {
            return error
        } catch {
            XCTFail("not an SDWebImageCoderError: \(error)")
            return nil
        }
    }

    /// COD-02 — a JPEG whose data ends before any of its picture (right after the scan's header) fails cleanly,
    /// with `truncated` in `SDWebImageErrorDomain`. This is the port's rule (chapter 06): a JPEG cut later decodes at
    /// its full size, as ImageIO decodes it (COD-13, `COD13_TruncatedImageTests`).
    func test_COD02_jpegWithNoPictureDataFailsCleanly() throws {
        let jpeg = try TestFixtures.data("baseline.jpg")
        let scanStart = try XCTUnwrap(jpeg.firstRange(of: Data([0xFF, 0xDA]))).lowerBound
        let headerOnly = jpeg.prefix(scanStart + 14)  // SOS with its 3-component header, no scan data
        let error = try XCTUnwrap(decodeError(headerOnly, by: manager))
        XCTAssertEqual(error, .truncated(.jpeg))
        XCTAssertEqual((error as NSError).domain, SDWebImageErrorDomain)
        XCTAssertTrue(error.localizedDescription.contains("ends before"), error.localizedDescription)
        XCTAssertNil(decodeError(try TestFixtures.data("truncated.jpg"), by: manager), "cut at 55 %: decodes (COD-13)")
    }

    /// COD-02 — cut-short PNG, GIF and WebP data: a PNG cut before its first row is `truncated` (one cut later
    /// decodes, COD-13); a GIF keeps the frames that arrived whole and one cut inside its first frame is
    /// `truncated` (the port's rule, chapter 06); a cut WebP is an error, as libwebp's `WebPDecode` makes it in
    /// 4.4.8.
    func test_COD02_truncatedPngGifWebp() throws {
        let png = try TestFixtures.data("gradient.png")
        XCTAssertEqual(decodeError(png.prefix(45), by: manager), .truncated(.png), "the header, no row")
        XCTAssertNil(decodeError(try TestFixtures.data("truncated.png"), by: manager), "cut at 50 %: decodes (COD-13)")

        let gif = try TestFixtures.data("animated.gif")
        XCTAssertEqual(decodeError(gif.prefix(40), by: manager), .truncated(.gif), "cut inside the first frame")
        let partial = try manager.decodeImage(from: gif.prefix(gif.count - 30))
        XCTAssertEqual(partial.distinctFrames.count, 4, "the last frame was cut off; the four before it are kept")

        let webp = try TestFixtures.data("lossy.webp")
        XCTAssertNotNil(decodeError(webp.prefix(webp.count / 2), by: manager))
        let animated = try TestFixtures.data("animated.webp")
        XCTAssertNotNil(decodeError(animated.prefix(animated.count - 20), by: manager))
    }

    /// Parity: COD-02 — corrupt and empty data.
    func test_COD02_corruptAndEmptyData() throws {
        XCTAssertNotNil(decodeError(try TestFixtures.data("corrupt.jpg"), by: manager))
        XCTAssertEqual(decodeError(try TestFixtures.data("empty.png"), by: manager), .emptyData)
        for coder in allCoders {
            XCTAssertEqual(decodeError(Data(), by: coder), .emptyData, "\(type(of: coder))")
        }
        // Right signature, nothing valid behind it.
        let signatures: [Data] = [
            Data([0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x02]), Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            Data("GIF89a".utf8), Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8),
        ]
        for data in signatures {
            let error = decodeError(data, by: manager)
            XCTAssertNotNil(error, "\(Array(data))")
            XCTAssertFalse(error?.localizedDescription.isEmpty ?? true)
        }
        XCTAssertNil(
            manager.decodedImage(with: try TestFixtures.data("corrupt.jpg")), "the original's nil-on-failure API")
        XCTAssertNil(manager.decodedImage(with: nil))
    }

    /// Parity: COD-02 — headers claiming enormous sizes are refused with `tooLarge` (before allocating).
    func test_COD02_enormousHeadersAreRefused() throws {
        XCTAssertEqual(
            decodeError(try TestFixtures.data("huge-dimensions.png"), by: manager),
            .tooLarge(width: 100000, height: 100000))
        XCTAssertEqual(
            decodeError(try TestFixtures.data("huge-dimensions.jpg"), by: manager),
            .tooLarge(width: 65000, height: 65000))
        XCTAssertEqual(
            decodeError(try TestFixtures.data("huge-dimensions.gif"), by: manager),
            .tooLarge(width: 65535, height: 65535))
        XCTAssertEqual(SDWebImageCoderHelper.maxDecodedPixelCount, 16384 * 16384)
        // The progressive PNG reader refuses it too.
        let progressive = SDWebImagePNGCoder()
        XCTAssertNil(
            progressive.incrementallyDecodedImage(with: try TestFixtures.data("huge-dimensions.png"), finished: false))
    }

    /// Parity: COD-02 — fuzz: 200 random or mutated byte arrays per format (seeded, so reproducible) through
    /// every decoder and the progressive decoders. Each either decodes or throws an `SDWebImageCoderError`;
    /// nothing crashes or exits.
    func test_COD02_fuzzedInputNeverCrashes() throws {
        var random = SeededGenerator(seed: 0x5D90_27)
        let seeds = [
            "baseline.jpg", "progressive.jpg", "rgba.png", "interlaced.png", "animated.gif", "lossy.webp",
            "lossless.webp", "animated.webp",
        ]
        var decodedCount = 0
        var errorCount = 0
        for name in seeds {
            let original = [UInt8](try TestFixtures.data(name))
            for round in 0..<200 {
                var bytes = original
                switch round % 4 {
                case 0:  // flip a few bytes anywhere (the header included)
                    for _ in 0..<Int.random(in: 1...8, using: &random) {
                        bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(
                            in: 0...255, using: &random)
                    }
                case 1:  // cut at a random length
                    bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random)))
                case 2:  // keep the first bytes (the signature), random after them
                    let keep = min(bytes.count, Int.random(in: 1...40, using: &random))
                    bytes =
                        Array(bytes.prefix(keep))
                        + (0..<Int.random(in: 0...600, using: &random)).map { _ in
                            UInt8.random(in: 0...255, using: &random)
                        }
                default:  // overwrite a run in the middle
                    let start = Int.random(in: 0..<bytes.count, using: &random)
                    for i in start..<min(bytes.count, start + Int.random(in: 1...64, using: &random)) {
                        bytes[i] = UInt8.random(in: 0...255, using: &random)
                    }
                }
                let data = Data(bytes)
                for coder in allCoders where coder.canDecode(from: data) {
                    if decodeError(data, by: coder) == nil { decodedCount += 1 } else { errorCount += 1 }
                }
                _ = SDWebImageJPEGCoder().incrementallyDecodedImage(with: data, finished: false)
                _ = SDWebImagePNGCoder().incrementallyDecodedImage(with: data, finished: false)
                _ = SDWebImageWebPCoder().incrementallyDecodedImage(with: data, finished: false)
            }
        }
        // Pure noise, no signature at all.
        for _ in 0..<200 {
            let data = Data(
                (0..<Int.random(in: 0...512, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
            for coder in allCoders {
                _ = decodeError(data, by: coder)
            }
        }
        XCTAssertGreaterThan(errorCount, 100, "most mutations must be refused")
        XCTAssertGreaterThan(decodedCount + errorCount, 1000)
    }
}
