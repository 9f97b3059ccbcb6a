import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// `SDWebImageImageIOCoder` (`SDWebImageImageIOCoder.m`, 4.4.8) on the C libraries: what it claims, a GIF's first
/// frame as a still image, and incremental decoding of JPEG, PNG and GIF (COD-10).
final class COD10_ImageIOCoderTests: XCTestCase {
    private let coder = SDWebImageImageIOCoder.shared

    /// Parity: COD-10 — it decodes JPEG, PNG and GIF; WebP is left to the WebP coder, as 4.4.8's
    /// `canDecodeFromData:` answers NO for it; TIFF and HEIC are sniffed but have no library here, so the coders
    /// manager reports "no coder" for them (ImageIO would read TIFF: a Linux difference).
    /// Parity: COD-10 — the coder claims every format but WebP, HEIC and HEIF, unknown bytes included, as 4.4.8's
    /// `default: YES` (`SDWebImageImageIOCoder.m:69-99,373-387`); a format it has no library for (TIFF, unknown)
    /// then fails to decode with `noCoder`, and encodes to nil.
    func test_COD10_claimsEverythingButWebPAndHEIC() throws {
        for name in ["baseline.jpg", "progressive.jpg", "rgba.png", "interlaced.png", "still.gif", "animated.gif"] {
            XCTAssertTrue(coder.canDecode(from: try TestFixtures.data(name)), name)
            XCTAssertTrue(coder.canIncrementallyDecode(from: try TestFixtures.data(name)), name)
        }
        XCTAssertFalse(coder.canDecode(from: try TestFixtures.data("lossy.webp")))
        XCTAssertFalse(coder.canIncrementallyDecode(from: try TestFixtures.data("lossy.webp")))
        let tiff = Data([0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00])
        let unknown = Data("not an image at all".utf8)
        let heic = Data([0, 0, 0, 0x18]) + Data("ftypheic".utf8) + Data(count: 16)
        XCTAssertTrue(coder.canDecode(from: tiff))
        XCTAssertTrue(coder.canDecode(from: unknown))
        XCTAssertTrue(coder.canIncrementallyDecode(from: unknown))
        XCTAssertTrue(
            SDWebImageCodersManager.shared.canDecode(from: unknown), "4.4.8's default coder claims unknown bytes")
        XCTAssertFalse(coder.canDecode(from: heic))
        XCTAssertThrowsError(try coder.decodeImage(from: unknown)) {
            XCTAssertEqual($0 as? SDWebImageCoderError, .noCoder(.undefined))
        }
        XCTAssertThrowsError(try SDWebImageCodersManager.shared.decodeImage(from: tiff)) {
            XCTAssertEqual($0 as? SDWebImageCoderError, .noCoder(.tiff))
        }
        XCTAssertThrowsError(try coder.decodeImage(from: tiff)) {
            XCTAssertEqual($0 as? SDWebImageCoderError, .noCoder(.tiff))
        }
        for format in [SDImageFormat.jpeg, .png, .gif, .undefined, .tiff] {
            XCTAssertTrue(coder.canEncode(to: format), "\(format)")
        }
        for format in [SDImageFormat.webp, .heic, .heif] { XCTAssertFalse(coder.canEncode(to: format), "\(format)") }
        let pixel = UIImage(pixelWidth: 1, pixelHeight: 1, pixels: [1, 2, 3, 255], hasAlpha: false)
        XCTAssertNil(coder.encodedData(with: pixel, format: .tiff), "no TIFF library here")
    }

    /// Parity: COD-10 — a GIF gives its first frame, still, with the GIF format; the same pixels as the animated
    /// coder's first frame. Encoding an animated image to GIF writes one still frame, as ImageIO does.
    func test_COD10_gifIsItsFirstFrameStill() throws {
        let data = try TestFixtures.data("animated.gif")
        let still = try coder.decodeImage(from: data)
        XCTAssertNil(still.images)
        XCTAssertEqual(still.sd_imageFormat, .gif)
        XCTAssertEqual([still.pixelWidth, still.pixelHeight], [20, 20])
        let animated = try SDWebImageGIFCoder.shared.decodeImage(from: data)
        XCTAssertEqual(still.pixels, animated.images?.first?.pixels)

        let encoded = try XCTUnwrap(coder.encodedData(with: animated, format: .gif))
        let back = try SDWebImageGIFCoder.shared.decodeImage(from: encoded)
        XCTAssertNil(back.images, "one frame written")
        XCTAssertEqual(back.pixels, still.pixels)

        XCTAssertEqual(
            Data.sd_imageFormat(forImageData: coder.encodedData(with: still, format: .undefined)),
            still.hasAlpha ? .png : .jpeg)
    }

    /// Parity: COD-10 — incremental JPEG and PNG: partial data gives a full-size image before the end, the
    /// finished call gives the same pixels as a full decode.
    func test_COD10_incrementalJPEGAndPNG() throws {
        for name in ["progressive.jpg", "interlaced.png", "gradient.png"] {
            let data = try TestFixtures.data(name)
            let full = try coder.decodeImage(from: data)
            let incremental = SDWebImageImageIOCoder()
            var partials = 0
            for end in stride(from: data.count / 4, to: data.count, by: max(1, data.count / 8)) {
                if let partial = incremental.incrementallyDecodedImage(with: data.prefix(end), finished: false) {
                    partials += 1
                    XCTAssertEqual(
                        [partial.pixelWidth, partial.pixelHeight], [full.pixelWidth, full.pixelHeight], name)
                }
            }
            XCTAssertGreaterThan(partials, 0, "\(name): a partial image before the end")
            let finished = try XCTUnwrap(incremental.incrementallyDecodedImage(with: data, finished: true), name)
            XCTAssertEqual(finished.pixels, full.pixels, name)
        }
    }

    /// Parity: COD-10 — incremental GIF, as ImageIO does: from a first frame cut part way, the rows that arrived
    /// (the rest transparent); when finished, the whole first frame, still.
    func test_COD10_incrementalGIFShowsTheFirstFrameRowsThatArrived() throws {
        // A GIF large enough to span many data sub-blocks: 64×64 of varied palette indices.
        var pixels = [UInt8]()
        var state: UInt32 = 7
        for y in 0..<64 {
            for _ in 0..<64 {
                state = state &* 1_103_515_245 &+ 12345
                let shade = UInt8((state >> 16) & 0x3F) * 4
                pixels += y < 32 ? [255, shade, 0, 255] : [0, shade, 255, 255]
            }
        }
        let source = UIImage(pixelWidth: 64, pixelHeight: 64, pixels: pixels, hasAlpha: false)
        let data = try SDWebImageGIFCoder.shared.encode(source)
        let full = try coder.decodeImage(from: data)

        let incremental = SDWebImageImageIOCoder()
        let partial = try XCTUnwrap(
            incremental.incrementallyDecodedImage(with: data.prefix(data.count / 2), finished: false))
        XCTAssertEqual([partial.pixelWidth, partial.pixelHeight], [64, 64])
        XCTAssertEqual(partial.sd_imageFormat, .gif)
        XCTAssertEqual(Array(partial.pixels[0..<4]), Array(full.pixels[0..<4]), "the first rows arrived")
        XCTAssertEqual(partial.pixels[partial.pixels.count - 1], 0, "the last rows did not: transparent")
        XCTAssertTrue(partial.hasAlpha)

        let finished = try XCTUnwrap(incremental.incrementallyDecodedImage(with: data, finished: true))
        XCTAssertEqual(finished.pixels, full.pixels)
        XCTAssertNil(finished.images)
        XCTAssertNil(
            SDWebImageImageIOCoder().incrementallyDecodedImage(with: data.prefix(6), finished: false),
            "nothing to show from a header alone")
    }

    /// Parity: COD-10, OP-03 — a progressive download of a GIF through the downloader (the default coders' ImageIO
    /// coder) delivers a partial still image before the final one.
    func test_COD10_progressiveGIFDownloadDeliversPartialImages() throws {
        var pixels = [UInt8]()
        for index in 0..<(96 * 96) {
            pixels += [UInt8(index % 251), UInt8(index % 13 * 19), UInt8(index % 7 * 36), 255]
        }
        let data = try SDWebImageGIFCoder.shared.encode(
            UIImage(pixelWidth: 96, pixelHeight: 96, pixels: pixels, hasAlpha: false))
        let server = SDPortTestServer()
        server.route(
            "/slow.gif", SDPortTestRoute.data(data, contentType: "image/gif").trickle(chunkSize: 512, interval: 0.02))
        try server.start()
        defer { server.stop() }
        let downloader = SDWebImageDownloader(sessionConfiguration: nil)
        defer { downloader.invalidateSessionAndCancel(true) }
        let recorder = downloadAndWait(downloader, server.url("/slow.gif"), options: .progressiveDownload)
        let partials = recorder.completions.filter { !$0.finished }
        XCTAssertGreaterThan(partials.count, 0, "at least one partial image")
        XCTAssertTrue(partials.allSatisfy { $0.image?.pixelWidth == 96 && $0.image?.images == nil })
        XCTAssertEqual(recorder.final?.image?.pixelWidth, 96)
        XCTAssertNil(recorder.final?.image?.images)
    }
}
