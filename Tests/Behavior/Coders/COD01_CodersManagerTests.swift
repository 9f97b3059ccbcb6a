import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// `SDWebImageCodersManager`: the coder list, last added first; decode, encode and decompress through the first
/// able coder (COD-01).
final class COD01_CodersManagerTests: XCTestCase {
    /// A real coder that claims PNG data and counts its calls, registered to see which coder the manager asks.
    private final class CountingPNGCoder: SDWebImageCoder, @unchecked Sendable {
        /// Guards `calls`.
        private let lock = NSLock()
        private var _calls: [String] = []
        var calls: [String] { lock.withLock { _calls } }
        private func note(_ call: String) { lock.withLock { _calls.append(call) } }

        func canDecode(from data: Data?) -> Bool { Data.sd_imageFormat(forImageData: data) == .png }
        func decodeImage(from data: Data) throws -> UIImage {
            note("decode")
            let image = try SDWebImagePNGCoder.shared.decodeImage(from: data)
            image.sd_imageLoopCount = 42  // a mark only this coder leaves
            return image
        }
        func decompressedImage(with image: UIImage?, data: inout Data?, options: SDWebImageCoderOptions?) -> UIImage? {
            note("decompress")
            return image
        }
        func canEncode(to format: SDImageFormat) -> Bool { format == .png }
        func encodedData(with image: UIImage?, format: SDImageFormat) -> Data? {
            note("encode")
            return Data("counted".utf8)
        }
    }

    /// Parity: COD-01, COD-10 — the default list is 4.4.8's as built with `SD_WEBP`: the ImageIO coder, then the
    /// WebP coder (asked first); the animated GIF coder is not in it. The shared manager uses it.
    func test_COD01_defaultCoders() {
        let coders = SDWebImageCodersManager.defaultCoders()
        XCTAssertEqual(coders.count, 2)
        XCTAssertTrue(coders.first is SDWebImageImageIOCoder)
        XCTAssertTrue(coders.last is SDWebImageWebPCoder)
        XCTAssertFalse(coders.contains { $0 is SDWebImageGIFCoder })
        XCTAssertEqual(SDWebImageCodersManager.shared.coders.count, 2)
        XCTAssertTrue(SDWebImageCodersManager.shared === SDWebImageCodersManager.shared)
        let manager = SDWebImageCodersManager()
        for (fixture, coder) in [
            ("baseline.jpg", "SDWebImageImageIOCoder"), ("rgba.png", "SDWebImageImageIOCoder"),
            ("animated.gif", "SDWebImageImageIOCoder"), ("lossy.webp", "SDWebImageWebPCoder"),
        ] {
            let data = try? TestFixtures.data(fixture)
            XCTAssertEqual(manager.coder(forDecoding: data).map { String(describing: type(of: $0)) }, coder, fixture)
        }
    }

    /// Parity: COD-01, COD-10 — a GIF through the default set is its first frame, still; a program that adds the
    /// GIF coder gets every frame with its delay (the GIF coder, added last, is asked first).
    func test_COD01_gifIsStillByDefaultAndAnimatedWithTheGIFCoderAdded() throws {
        let data = try TestFixtures.data("animated.gif")
        let manager = SDWebImageCodersManager()
        let still = try manager.decodeImage(from: data)
        XCTAssertNil(still.images, "the default set gives a still image")
        XCTAssertEqual(still.sd_imageFormat, .gif)
        XCTAssertEqual(still.pixelWidth, 20)
        let animated = try SDWebImageGIFCoder.shared.decodeImage(from: data)
        XCTAssertEqual(still.pixels, animated.images?.first?.pixels, "the still is the first frame")

        manager.addCoder(SDWebImageGIFCoder.shared)
        let frames = try manager.decodeImage(from: data)
        XCTAssertEqual(frames.distinctFrames.count, 5)
        XCTAssertEqual(frames.frameDurations.count, 5)
        XCTAssertTrue(frames.frameDurations.allSatisfy { $0 > 0 })
        XCTAssertTrue(manager.coder(forDecoding: data) is SDWebImageGIFCoder)
        // 100, 200, 100, 100 and 70 ms repeat 10, 20, 10, 10 and 7 times (gcd 10 ms): 57 images (COD-12).
        XCTAssertEqual(frames.images?.count, 57)
        XCTAssertEqual(still.sd_memoryCost * 57, frames.sd_memoryCost, "memory cost counts every entry of images")
    }

    /// Parity: COD-01 — a coder added later is asked first; removing it gives the job back to the earlier one.
    /// Parity: COD-01 — decompressing goes through the first coder that can decode the data; when none can, the
    /// answer is nil, as 4.4.8's manager returns (`SDWebImageCodersManager.m:123-130`), not a decompression of its
    /// own. Here a list of only the PNG-claiming coder gets JPEG data.
    func test_COD01_decompressWithNoCoderForTheDataIsNil() throws {
        let jpeg = try TestFixtures.data("baseline.jpg")
        let image = try SDWebImageCodersManager.shared.decodeImage(from: jpeg)
        let counting = CountingPNGCoder()
        let manager = SDWebImageCodersManager(coders: [counting])
        var data: Data? = jpeg
        XCTAssertNil(manager.decompressedImage(with: image, data: &data, options: nil))
        XCTAssertEqual(counting.calls, [], "the PNG coder was not asked")
        var png: Data? = try TestFixtures.data("gradient.png")
        XCTAssertNotNil(manager.decompressedImage(with: image, data: &png, options: nil))
        XCTAssertEqual(counting.calls, ["decompress"])
    }

    func test_COD01_lastAddedIsAskedFirstAndRemoveRestores() throws {
        let manager = SDWebImageCodersManager()
        let counting = CountingPNGCoder()
        let png = try TestFixtures.data("rgba.png")
        XCTAssertEqual(try manager.decodeImage(from: png).sd_imageLoopCount, 0)

        manager.addCoder(counting)
        XCTAssertEqual(manager.coders.count, 3)
        XCTAssertEqual(try manager.decodeImage(from: png).sd_imageLoopCount, 42, "the added coder answered")
        XCTAssertEqual(
            manager.encodedData(with: try manager.decodeImage(from: png), format: .png), Data("counted".utf8))
        var data: Data? = png
        _ = manager.decompressedImage(with: try manager.decodeImage(from: png), data: &data, options: nil)
        XCTAssertEqual(counting.calls, ["decode", "decode", "encode", "decode", "decompress"])

        // JPEG is not its format: the ImageIO coder still answers.
        XCTAssertEqual(try manager.decodeImage(from: try TestFixtures.data("baseline.jpg")).sd_imageFormat, .jpeg)
        XCTAssertEqual(counting.calls.count, 5)

        manager.removeCoder(counting)
        XCTAssertEqual(manager.coders.count, 2)
        XCTAssertEqual(try manager.decodeImage(from: png).sd_imageLoopCount, 0)
        XCTAssertEqual(counting.calls.count, 5)
    }

    /// Parity: COD-01 — decode, encode and decompress through the real coders; `.undefined` encodes PNG for
    /// alpha, JPEG otherwise; an empty manager can do nothing.
    func test_COD01_decodeEncodeDecompressThroughTheFirstAbleCoder() throws {
        let manager = SDWebImageCodersManager()
        let rgba = try manager.decodeImage(from: try TestFixtures.data("rgba.png"))
        let opaque = try manager.decodeImage(from: try TestFixtures.data("baseline.jpg"))
        XCTAssertEqual(Data.sd_imageFormat(forImageData: manager.encodedData(with: rgba, format: .undefined)), .png)
        XCTAssertEqual(Data.sd_imageFormat(forImageData: manager.encodedData(with: opaque, format: .undefined)), .jpeg)
        for format in [SDImageFormat.png, .jpeg, .gif, .webp] {
            XCTAssertTrue(manager.canEncode(to: format))
            let data = manager.encodedData(with: opaque, format: format)
            XCTAssertEqual(Data.sd_imageFormat(forImageData: data), format)
            XCTAssertEqual(try manager.decodeImage(from: try XCTUnwrap(data)).pixelWidth, 256)
        }
        var data: Data? = try TestFixtures.data("baseline.jpg")
        let decompressed = try XCTUnwrap(manager.decompressedImage(with: opaque, data: &data, options: nil))
        XCTAssertTrue(decompressed.sd_isDecoded)
        XCTAssertEqual(decompressed.sd_imageFormat, .jpeg)

        var noData: Data?
        XCTAssertTrue(
            try XCTUnwrap(manager.decompressedImage(with: opaque, data: &noData, options: nil)).sd_isDecoded,
            "without data the helper still force-decodes, as the ImageIO coder did")

        let empty = SDWebImageCodersManager(coders: [])
        XCTAssertFalse(empty.canDecode(from: try TestFixtures.data("rgba.png")))
        XCTAssertThrowsError(try empty.decodeImage(from: try TestFixtures.data("rgba.png"))) {
            XCTAssertEqual($0 as? SDWebImageCoderError, .noCoder(.png))
        }
        XCTAssertNil(empty.encodedData(with: rgba, format: .png))
        XCTAssertNil(manager.encodedData(with: nil, format: .png))
    }

    /// Parity: COD-01 — the list is safe to change while other threads decode through it.
    func test_COD01_concurrentChangesAndDecodes() throws {
        let manager = SDWebImageCodersManager()
        let png = try TestFixtures.data("rgba.png")
        let extra = (0..<8).map { _ in CountingPNGCoder() }
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            let coder = extra[i % extra.count]
            if i % 2 == 0 { manager.addCoder(coder) } else { manager.removeCoder(extra[(i - 1) % extra.count]) }
            XCTAssertEqual((try? manager.decodeImage(from: png))?.pixelWidth, 32)
        }
        for coder in extra { manager.removeCoder(coder) }
        XCTAssertEqual(manager.coders.count, 2)
    }

    /// A deliberate difference (chapter 08): setting `coders` is locked like `addCoder`, as in 5.x; 4.4.8's
    /// `coders` property is a plain synthesized one that races with `addCoder:`. ThreadSanitizer (CI) reports the
    /// race if the setter is not locked; without it, the last write must still win whole.
    func test_COD01_settingTheCodersPropertyWhileAddingIsLocked() throws {
        let manager = SDWebImageCodersManager()
        let extra = (0..<4).map { _ in CountingPNGCoder() }
        let base: [any SDWebImageCoder] = [SDWebImagePNGCoder()]
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            if i % 2 == 0 { manager.coders = base } else { manager.addCoder(extra[i % extra.count]) }
            XCTAssertGreaterThanOrEqual(manager.coders.count, 1)
        }
        manager.coders = base
        XCTAssertEqual(manager.coders.count, 1)
        XCTAssertTrue(manager.coders.first is SDWebImagePNGCoder)
    }

    /// Parity: COD-01 — decoding reports the decode step of the flow trace.
    func test_COD01_decodeIsTraced() throws {
        let key = "cod01-\(UUID().uuidString)"
        let details = Recorder<String>()
        let token = SDWebImageTrace.addObserver { event in
            if event.key == key, event.step == .decode { details.append(event.detail) }
        }
        defer { SDWebImageTrace.removeObserver(token) }
        _ = try SDWebImageCodersManager.shared.decodeImage(from: try TestFixtures.data("animated.gif"), traceKey: key)
        XCTAssertThrowsError(try SDWebImageCodersManager.shared.decodeImage(from: Data([1, 2, 3]), traceKey: key))
        let seen = details.values
        XCTAssertEqual(seen.count, 2)
        XCTAssertEqual(seen.first, "gif 20×20, 1 frame", "the default set decodes a GIF's first frame")
        XCTAssertTrue(seen.last?.hasPrefix("failed:") ?? false)
    }
}
