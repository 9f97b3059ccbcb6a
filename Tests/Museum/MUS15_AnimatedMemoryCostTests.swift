import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// MUS-15: the memory-cache cost counts repeated animation frames, in pixels. 4.4.8 charges width × height ×
/// scale² per entry of `images` (`UIImage+MemoryCacheCost.m:12-19`), and `animatedImageWithFrames:` repeats a long
/// frame to stretch it (`SDWebImageCoderHelper.m:38-46`). The patch charges bytes per distinct frame, as 5.x.
final class MUS15_AnimatedMemoryCostTests: XCTestCase {
    private var fixture: MUSCacheFixture!

    override func setUpWithError() throws {
        fixture = try MUSCacheFixture("mus15")
        fixture.cache.config.shouldUseWeakMemoryCache = false  // only the cost-limited part may keep it
    }
    override func tearDown() {
        fixture.tearDown()
        fixture = nil
    }

    /// A 1 s frame and a 0.1 s frame of 10 × 10 pixels: eleven entries, two distinct frames.
    private func animated() throws -> UIImage {
        func frame(_ value: UInt8) -> UIImage {
            UIImage(pixelWidth: 10, pixelHeight: 10, pixels: [UInt8](repeating: value, count: 400), hasAlpha: false)
        }
        let image = try XCTUnwrap(
            SDWebImageCoderHelper.animatedImage(with: [
                SDWebImageFrame(image: frame(1), duration: 1.0),
                SDWebImageFrame(image: frame(2), duration: 0.1),
            ]))
        XCTAssertEqual(image.images?.count, 11)
        return image
    }

    /// Faithful side: 11 × 100 pixels, so a limit of five frames' worth evicts it at once.
    func test_MUS15_repeatedFramesAreChargedOncePerRepeat() throws {
        try MuseumSide.requireUnpatched("MUS-15")
        XCTAssertEqual(try animated().sd_memoryCost, 11 * 100, "every repeat charged (4.4.8's bug)")
        fixture.cache.maxMemoryCost = 5 * 100
        fixture.cache.store(try animated(), forKey: "k", toDisk: false, completion: nil)
        XCTAssertNil(fixture.cache.imageFromMemoryCache(forKey: "k"), "its cost alone exceeds the limit")
    }

    /// Fixed side (5.0 / 5.12.0): two distinct frames of 40 bytes × 10 rows; it fits a limit of five frames' bytes.
    func test_MUS15_fixed_distinctFramesInBytes() throws {
        try MuseumSide.requirePatched("MUS-15")
        XCTAssertEqual(try animated().sd_memoryCost, 2 * 40 * 10)
        fixture.cache.maxMemoryCost = 5 * 400
        fixture.cache.store(try animated(), forKey: "k", toDisk: false, completion: nil)
        XCTAssertNotNil(fixture.cache.imageFromMemoryCache(forKey: "k"))
    }
}
