import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// One-frame animations as 4.4.8 has them (COD-12): an animated WebP file with one frame decodes to an animated
/// image of one entry (`SDWebImageWebPCoder.m:77-146`), and an animated image of one entry, which `frames(from:)`
/// gives no frames of, is encoded as a still image (4.4.8's `frames.count == 0` branches).
final class COD12_OneFrameAnimationTests: XCTestCase {
    private let frame = UIImage(
        pixelWidth: 2, pixelHeight: 2, pixels: [UInt8](repeating: 200, count: 16), hasAlpha: false)

    /// Parity: COD-12 — an animated WebP of one frame is an animated image with `images.count == 1`.
    func test_COD12_oneFrameAnimatedWebPStaysAnimated() throws {
        // libwebp's encoders (WebPAnimEncoder and WebPMux alike) write a single frame as a still file, so the
        // container is written here: VP8X with the animation flag, ANIM, and one ANMF frame of 200 ms holding the
        // frame's VP8L chunk, as an animated file of one frame is laid out.
        let still = try SDWebImageWebPCoder.shared.encode(frame, lossless: true)
        let frameChunk = still.dropFirst(12)  // after "RIFF", its size and "WEBP"
        func le(_ value: Int, _ bytes: Int) -> [UInt8] {
            (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        func chunk(_ tag: String, _ payload: [UInt8]) -> [UInt8] {
            Array(tag.utf8) + le(payload.count, 4) + payload + (payload.count % 2 == 1 ? [0] : [])
        }
        let vp8x = chunk("VP8X", [0x02, 0, 0, 0] + le(1, 3) + le(1, 3))  // animation flag; canvas 2x2 (stored minus 1)
        let anim = chunk("ANIM", le(0, 4) + le(0, 2))  // background, loop forever
        let anmf = chunk("ANMF", le(0, 3) + le(0, 3) + le(1, 3) + le(1, 3) + le(200, 3) + [0x02] + Array(frameChunk))
        let body = Array("WEBP".utf8) + vp8x + anim + anmf
        let data = Data(Array("RIFF".utf8) + le(body.count, 4) + body)
        let decoded = try SDWebImageWebPCoder.shared.decodeImage(from: data)
        XCTAssertEqual(decoded.images?.count, 1, "animated, one entry")
        XCTAssertEqual(decoded.duration, 0.2, accuracy: 0.001)
    }

    /// Parity: COD-12 — an animated image of a single entry encodes as a still WebP and a still GIF.
    func test_COD12_singleEntryAnimationEncodesAsAStill() throws {
        let single = try XCTUnwrap(UIImage(animatedImages: [frame], duration: 1))
        let webp = try XCTUnwrap(SDWebImageWebPCoder.shared.encodedData(with: single, format: .webp))
        XCTAssertNil(try SDWebImageWebPCoder.shared.decodeImage(from: webp).images, "a still WebP")
        let gif = try SDWebImageGIFCoder.shared.encode(single)
        XCTAssertNil(try SDWebImageGIFCoder.shared.decodeImage(from: gif).images, "a still GIF")
    }
}
