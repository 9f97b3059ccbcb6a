import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// MUS-16: frame durations truncated to whole milliseconds shorten the animation. 4.4.8 converts each duration to
/// integer milliseconds by truncation (`SDWebImageCoderHelper.m:27-30`) and sums those for the total
/// (`SDWebImageCoderHelper.m:32-37, 49`); its decoders hand it float delays (`SDWebImageGIFCoder.m:93-108`). The
/// patch sums the total in seconds, as 5.12.2.
final class MUS16_FrameDurationTests: XCTestCase {
    private func animated(_ durations: [TimeInterval]) throws -> UIImage {
        let frames = durations.enumerated().map { index, duration in
            SDWebImageFrame(
                image: UIImage(
                    pixelWidth: 1, pixelHeight: 1, pixels: [UInt8(index % 256), 0, 0, 255], hasAlpha: false),
                duration: duration)
        }
        return try XCTUnwrap(SDWebImageCoderHelper.animatedImage(with: frames))
    }

    /// Faithful side: a 2.01 s GIF delay loses a millisecond and the gcd collapses to 1; 4.4.8's float delays do
    /// the same to 40 ms frames; eight 12.5 ms frames total 96 ms.
    func test_MUS16_totalDurationIsSummedFromTruncatedMilliseconds() throws {
        try MuseumSide.requireUnpatched("MUS-16")
        let gif = try animated([SDWebImageGIFCoder.frameDuration(delayHundredths: 201), 0.5])
        XCTAssertEqual(gif.duration, 2.509, accuracy: 1e-9, "2.01 × 1000 truncates to 2009")
        XCTAssertEqual(gif.images?.count, 2509, "gcd(2009, 500) = 1")
        let floats = try animated([Double(Float(1.0))] + Array(repeating: Double(Float(0.04)), count: 3))
        XCTAssertEqual(floats.images?.count, 1117, "0.04f is 39 ms: gcd 1 (exact: 28 entries)")
        XCTAssertEqual(floats.duration, 1.117, accuracy: 1e-9)
        XCTAssertEqual(try animated(Array(repeating: 0.0125, count: 8)).duration, 0.096, accuracy: 1e-9)
    }

    /// Fixed side (5.12.2): the total is the sum of the frames; the entries still come from truncated
    /// milliseconds, as in 5.21.5.
    func test_MUS16_fixed_totalDurationIsTheSumOfTheFrames() throws {
        try MuseumSide.requirePatched("MUS-16")
        let gif = try animated([SDWebImageGIFCoder.frameDuration(delayHundredths: 201), 0.5])
        XCTAssertEqual(gif.duration, 2.51, accuracy: 1e-9)
        XCTAssertEqual(gif.images?.count, 2509)
        XCTAssertEqual(try animated(Array(repeating: 0.0125, count: 8)).duration, 0.1, accuracy: 1e-9)
    }
}
