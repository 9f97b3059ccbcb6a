import Foundation
import SDPort
import SDPortCacheWorkload
import SDPortTestSupport
import XCTest

/// Progressive decoding of partial JPEG, PNG and WebP data (COD-03): a partial image from the data so far, a
/// better one from more data, and the full decode at the end.
final class COD03_ProgressiveDecodingTests: XCTestCase {
    /// Parity: COD-03 — the PNG and JPEG coders are progressive; the downloader makes a fresh one per download.
    func test_COD03_pngAndJpegCodersAreProgressive() throws {
        let progressive: [any SDWebImageProgressiveCoder.Type] = [SDWebImagePNGCoder.self, SDWebImageJPEGCoder.self]
        XCTAssertTrue(progressive[0].init().canIncrementallyDecode(from: try TestFixtures.data("rgba.png")))
        XCTAssertTrue(progressive[1].init().canIncrementallyDecode(from: try TestFixtures.data("baseline.jpg")))
        XCTAssertFalse(progressive[1].init().canIncrementallyDecode(from: try TestFixtures.data("rgba.png")))
        XCTAssertFalse(SDWebImageGIFCoder.shared is any SDWebImageProgressiveCoder)
    }

    /// Parity: COD-03 — the WebP coder is progressive too, as 4.4.8's `SDWebImageWebPCoder` conforms to
    /// `SDWebImageProgressiveCoder` (`canIncrementallyDecodeFromData:` is "is WebP").
    func test_COD03_webpCoderIsProgressive() throws {
        let type: any SDWebImageProgressiveCoder.Type = SDWebImageWebPCoder.self
        XCTAssertTrue((SDWebImageWebPCoder.shared as any SDWebImageCoder) is any SDWebImageProgressiveCoder)
        XCTAssertTrue(type.init().canIncrementallyDecode(from: try TestFixtures.data("lossy.webp")))
        XCTAssertTrue(type.init().canIncrementallyDecode(from: try TestFixtures.data("lossless.webp")))
        XCTAssertTrue(
            type.init().canIncrementallyDecode(from: try TestFixtures.data("animated.webp")),
            "any WebP, as the original")
        XCTAssertFalse(type.init().canIncrementallyDecode(from: try TestFixtures.data("baseline.jpg")))
        XCTAssertFalse(type.init().canIncrementallyDecode(from: nil))
    }

    /// Parity: COD-03 — baseline JPEG: more data, more rows identical to the final image; finished = full decode.
    func test_COD03_baselineJpegGainsRows() throws {
        let data = try TestFixtures.data("baseline.jpg")
        let final = try SDWebImageJPEGCoder.shared.decodeImage(from: data)
        let coder = SDWebImageJPEGCoder()
        XCTAssertNil(
            coder.incrementallyDecodedImage(with: data.prefix(100), finished: false), "the header has not arrived")
        var previousRows = -1
        for percent in [40, 60, 80, 95] {
            let partial = try XCTUnwrap(
                coder.incrementallyDecodedImage(with: data.prefix(data.count * percent / 100), finished: false),
                "\(percent) %")
            XCTAssertEqual(partial.pixelWidth, 256)
            XCTAssertEqual(partial.pixelHeight, 192)
            let rows = CODFixturePixels.identicalLeadingRows(partial, final)
            XCTAssertGreaterThan(rows, previousRows, "\(percent) % of the data shows more finished rows")
            XCTAssertLessThan(rows, 192, "\(percent) % of the data cannot show every row")
            previousRows = rows
        }
        XCTAssertGreaterThan(previousRows, 0)
        let done = try XCTUnwrap(coder.incrementallyDecodedImage(with: data, finished: true))
        XCTAssertEqual(done.pixels, final.pixels)
        let cut = data.prefix(data.count / 2)
        XCTAssertEqual(
            SDWebImageJPEGCoder().incrementallyDecodedImage(with: cut, finished: true)?.pixels,
            try SDWebImageJPEGCoder.shared.decodeImage(from: cut).pixels,
            "finished with data that ends early decodes as decodeImage does (COD-13: full size, rows filled)")
    }

    /// Parity: COD-03 — progressive JPEG: every scan that arrives brings the image closer to the final one.
    func test_COD03_progressiveJpegGetsCloser() throws {
        let data = try TestFixtures.data("progressive.jpg")
        let final = try SDWebImageJPEGCoder.shared.decodeImage(from: data)
        let coder = SDWebImageJPEGCoder()
        var distances: [Double] = []
        for percent in [35, 55, 75, 90] {
            if let partial = coder.incrementallyDecodedImage(
                with: data.prefix(data.count * percent / 100), finished: false)
            {
                distances.append(CODFixturePixels.meanDifference(partial, final))
            }
        }
        XCTAssertGreaterThanOrEqual(distances.count, 3)
        for (earlier, later) in zip(distances, distances.dropFirst()) {
            XCTAssertLessThanOrEqual(later, earlier, "more scans never make it worse: \(distances)")
        }
        XCTAssertLessThan(
            try XCTUnwrap(distances.last), try XCTUnwrap(distances.first), "and they make it better: \(distances)")
        XCTAssertEqual(coder.incrementallyDecodedImage(with: data, finished: true)?.pixels, final.pixels)
    }

    /// Parity: COD-03 — PNG through libpng's progressive reader: rows arrive top to bottom, exact, the rest
    /// transparent; only the new bytes are fed each time.
    func test_COD03_pngRowsArriveInOrder() throws {
        let data = try TestFixtures.data("gradient.png")
        let final = try SDWebImagePNGCoder.shared.decodeImage(from: data)
        let coder = SDWebImagePNGCoder()
        XCTAssertNil(coder.incrementallyDecodedImage(with: data.prefix(20), finished: false), "no header yet")
        var previousRows = 0
        for percent in [20, 45, 70, 95] {
            let partial = try XCTUnwrap(
                coder.incrementallyDecodedImage(with: data.prefix(data.count * percent / 100), finished: false))
            let rows = CODFixturePixels.identicalLeadingRows(partial, final)
            XCTAssertGreaterThan(rows, previousRows, "\(percent) %")
            XCTAssertLessThan(rows, 192)
            XCTAssertEqual(partial.pixel(x: 10, y: 191).a, 0, "rows not arrived yet are transparent")
            XCTAssertTrue(partial.hasAlpha)
            previousRows = rows
        }
        let done = try XCTUnwrap(coder.incrementallyDecodedImage(with: data, finished: true))
        XCTAssertEqual(done.pixels, final.pixels)
        XCTAssertFalse(done.hasAlpha)
    }

    /// Parity: COD-03 — interlaced PNG: the passes fill the image in; the last pass gives the exact pixels.
    func test_COD03_interlacedPngFillsIn() throws {
        let data = try TestFixtures.data("interlaced.png")
        let final = try SDWebImagePNGCoder.shared.decodeImage(from: data)
        let coder = SDWebImagePNGCoder()
        var opaqueCounts: [Int] = []
        for percent in [50, 75, 99] {
            if let partial = coder.incrementallyDecodedImage(
                with: data.prefix(data.count * percent / 100), finished: false)
            {
                opaqueCounts.append(
                    stride(from: 3, to: partial.pixels.count, by: 4).filter { partial.pixels[$0] == 255 }.count)
            }
        }
        XCTAssertFalse(opaqueCounts.isEmpty)
        XCTAssertEqual(opaqueCounts, opaqueCounts.sorted(), "each pass adds pixels")
        XCTAssertEqual(coder.incrementallyDecodedImage(with: data, finished: true)?.pixels, final.pixels)
    }

    /// Parity: COD-03 — a progressive coder shared by threads stays consistent (its state is under a lock).
    func test_COD03_concurrentCallsOnOneCoder() throws {
        let png = try TestFixtures.data("gradient.png")
        let jpeg = try TestFixtures.data("baseline.jpg")
        let webp = try TestFixtures.data("lossless-gradient.webp")
        let pngCoder = SDWebImagePNGCoder()
        let jpegCoder = SDWebImageJPEGCoder()
        let webpCoder = SDWebImageWebPCoder()
        DispatchQueue.concurrentPerform(iterations: 32) { i in
            let fraction = 40 + (i % 6) * 10
            _ = pngCoder.incrementallyDecodedImage(with: png.prefix(png.count * fraction / 100), finished: false)
            let image = jpegCoder.incrementallyDecodedImage(
                with: jpeg.prefix(jpeg.count * fraction / 100), finished: false)
            XCTAssertEqual(image?.pixelWidth, 256)
            // Shorter data than another thread's resets the decoder: every answer is still a whole 256×192 image.
            let partial = webpCoder.incrementallyDecodedImage(
                with: webp.prefix(webp.count * fraction / 100), finished: false)
            XCTAssertEqual(partial?.pixelWidth, 256)
            XCTAssertEqual(partial?.pixelHeight, 192)
        }
        XCTAssertEqual(pngCoder.incrementallyDecodedImage(with: png, finished: true)?.pixelHeight, 192)
        XCTAssertEqual(webpCoder.incrementallyDecodedImage(with: webp, finished: true)?.pixelHeight, 192)
    }

    // MARK: WebP (libwebp's incremental decoder, as 4.4.8's SDWebImageWebPCoder)

    /// How many rows from the top have any non-transparent pixel; checks every row below them is fully transparent.
    private func decodedRows(_ image: UIImage, file: StaticString = #filePath, line: UInt = #line) -> Int {
        func rowIsClear(_ y: Int) -> Bool {
            (0..<image.pixelWidth).allSatisfy { image.pixel(x: $0, y: y) == (0, 0, 0, 0) }
        }
        let rows = (0..<image.pixelHeight).first(where: rowIsClear) ?? image.pixelHeight
        XCTAssertTrue(
            (rows..<image.pixelHeight).allSatisfy(rowIsClear), "rows not decoded yet are transparent",
            file: file, line: line)
        return rows
    }

    /// Parity: COD-03 — lossy WebP: partial data gives the full-size image with the decoded rows on top, exactly
    /// the final ones, and the rest transparent; more data, more rows; the whole data equals the full decode.
    func test_COD03_lossyWebpGainsRows() throws {
        let data = try TestFixtures.data("lossy.webp")
        let final = try SDWebImageWebPCoder.shared.decodeImage(from: data)
        let coder = SDWebImageWebPCoder()
        XCTAssertNil(coder.incrementallyDecodedImage(with: data.prefix(30), finished: false), "only the header")
        XCTAssertNil(coder.incrementallyDecodedImage(with: data.prefix(300), finished: false), "no row decoded yet")
        var previousRows = 0
        for percent in [50, 70, 90] {
            let partial = try XCTUnwrap(
                coder.incrementallyDecodedImage(with: data.prefix(data.count * percent / 100), finished: false),
                "\(percent) %")
            XCTAssertEqual(partial.pixelWidth, 256)
            XCTAssertEqual(partial.pixelHeight, 192)
            XCTAssertEqual(partial.sd_imageFormat, .webp)
            XCTAssertTrue(partial.hasAlpha, "the rows still missing are transparent")
            let rows = decodedRows(partial)
            XCTAssertGreaterThan(rows, previousRows, "\(percent) % of the data shows more rows")
            XCTAssertLessThan(rows, 192, "\(percent) % of the data cannot show every row")
            XCTAssertEqual(CODFixturePixels.identicalLeadingRows(partial, final), rows, "the decoded rows are final")
            XCTAssertEqual(partial.pixel(x: 8, y: 8).a, 255)
            previousRows = rows
        }
        let whole = try XCTUnwrap(coder.incrementallyDecodedImage(with: data, finished: false))
        XCTAssertEqual(whole.pixels, final.pixels, "all the data, not yet finished: every row")
        let done = try XCTUnwrap(coder.incrementallyDecodedImage(with: data, finished: true))
        XCTAssertEqual(done.pixels, final.pixels)
        XCTAssertFalse(done.hasAlpha)
        XCTAssertEqual(done.sd_imageFormat, .webp)
    }

    /// Parity: COD-03 — lossless WebP with translucent pixels: libwebp decodes 16 rows at a time into premultiplied
    /// RGBA; the coder un-premultiplies them, so they match the full decode to within that rounding (exactly
    /// where opaque) and alpha exactly. The small 60-byte lossless.webp gives nothing until all of it is there.
    func test_COD03_losslessWebpRowsUnpremultiplied() throws {
        let data = try TestFixtures.data("lossless-gradient.webp")
        let final = try SDWebImageWebPCoder.shared.decodeImage(from: data)
        let coder = SDWebImageWebPCoder()
        var previousRows = 0
        for percent in [25, 50, 75, 95] {
            let partial = try XCTUnwrap(
                coder.incrementallyDecodedImage(with: data.prefix(data.count * percent / 100), finished: false),
                "\(percent) %")
            XCTAssertEqual(partial.pixelWidth, 256)
            XCTAssertEqual(partial.pixelHeight, 192)
            let rows = decodedRows(partial)
            XCTAssertGreaterThan(rows, previousRows, "\(percent) %")
            XCTAssertLessThan(rows, 192)
            for y in 0..<rows {
                for x in stride(from: 0, to: 256, by: 3) {
                    let p = partial.pixel(x: x, y: y)
                    let q = final.pixel(x: x, y: y)
                    XCTAssertEqual(p.a, q.a, "(\(x), \(y))")
                    // Premultiplying to 8 bits and back loses up to about 255 / (2·alpha) levels.
                    let tolerance = q.a == 255 ? 0 : 255 / (2 * max(1, Int(q.a))) + 2
                    let worst = max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)))
                    XCTAssertLessThanOrEqual(worst, tolerance, "(\(x), \(y)) alpha \(q.a)")
                }
            }
            previousRows = rows
        }
        XCTAssertEqual(try XCTUnwrap(coder.incrementallyDecodedImage(with: data, finished: true)).pixels, final.pixels)

        let small = try TestFixtures.data("lossless.webp")
        let smallCoder = SDWebImageWebPCoder()
        for length in 0..<small.count {
            XCTAssertNil(
                smallCoder.incrementallyDecodedImage(with: small.prefix(length), finished: false), "\(length) bytes")
        }
        let smallWhole = try XCTUnwrap(smallCoder.incrementallyDecodedImage(with: small, finished: false))
        XCTAssertEqual(smallWhole.pixelWidth, 16)
        XCTAssertEqual(smallWhole.pixel(x: 15, y: 15).a, 80, "the translucent column keeps its alpha")
        XCTAssertEqual(
            smallCoder.incrementallyDecodedImage(with: small, finished: true)?.pixels,
            try SDWebImageWebPCoder.shared.decodeImage(from: small).pixels)
    }

    /// Parity: COD-03 — data that is not a still WebP gives nil, never a crash: noise behind a WebP header, a
    /// damaged bitstream, animated WebP (libwebp has no incremental decoder for it; finished decodes it whole);
    /// a download with less data than the last call starts a new decoder.
    func test_COD03_webpBadDataGivesNil() throws {
        var random = SeededGenerator(seed: 0xC0D0_3EB9)
        let lossy = try TestFixtures.data("lossy.webp")
        let noise = Data((0..<2000).map { _ in UInt8.random(in: 0...255, using: &random) })
        XCTAssertNil(SDWebImageWebPCoder().incrementallyDecodedImage(with: noise, finished: false))
        XCTAssertNil(SDWebImageWebPCoder().incrementallyDecodedImage(with: noise, finished: true))
        XCTAssertNil(SDWebImageWebPCoder().incrementallyDecodedImage(with: nil, finished: false))
        XCTAssertNil(
            SDWebImageWebPCoder().incrementallyDecodedImage(with: lossy.prefix(30) + noise, finished: false),
            "a VP8 header followed by noise")
        for round in 0..<100 {
            var bytes = [UInt8](lossy)
            for _ in 0..<(1 + round % 8) {
                bytes[Int.random(in: 20..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            let coder = SDWebImageWebPCoder()
            for percent in [40, 60, 80, 100] {
                if let image = coder.incrementallyDecodedImage(
                    with: Data(bytes.prefix(bytes.count * percent / 100)), finished: false)
                {
                    // A damaged header may claim another size: the bitmap always matches what it claims.
                    XCTAssertEqual(image.pixels.count, image.pixelWidth * image.pixelHeight * 4)
                    XCTAssertEqual(image.bytesPerRow, image.pixelWidth * 4)
                }
            }
        }

        let animated = try TestFixtures.data("animated.webp")
        let animatedCoder = SDWebImageWebPCoder()
        XCTAssertNil(animatedCoder.incrementallyDecodedImage(with: animated, finished: false))
        XCTAssertNil(
            animatedCoder.incrementallyDecodedImage(with: animated, finished: true),
            "the finished call too: libwebp's incremental decoder refuses animations (OP-10)")

        let coder = SDWebImageWebPCoder()
        let gradient = try TestFixtures.data("lossless-gradient.webp")
        XCTAssertEqual(
            coder.incrementallyDecodedImage(with: gradient.prefix(gradient.count / 2), finished: false)?.pixel(
                x: 0, y: 0
            ).a, 255)
        let restarted = try XCTUnwrap(
            coder.incrementallyDecodedImage(with: lossy, finished: false), "less data: a new decoder")
        XCTAssertEqual(restarted.pixels, try SDWebImageWebPCoder.shared.decodeImage(from: lossy).pixels)
    }
}
