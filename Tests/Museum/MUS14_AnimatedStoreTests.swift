import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// MUS-14: an animated image stored without its data is written as a still PNG or JPEG. With nil data 4.4.8
/// chooses the format from alpha alone (`SDImageCache.m:304-313`), so an animated GIF comes back from disk as a
/// still image. The patch uses the image's own format first, as 5.6.0.
final class MUS14_AnimatedStoreTests: XCTestCase {
    private var fixture: MUSCacheFixture!
    private let gifCoder = SDWebImageGIFCoder()

    override func setUpWithError() throws {
        fixture = try MUSCacheFixture("mus14")
        SDWebImageCodersManager.shared.addCoder(gifCoder)
    }
    override func tearDown() {
        SDWebImageCodersManager.shared.removeCoder(gifCoder)
        fixture.tearDown()
        fixture = nil
    }

    /// Decodes the animated fixture, stores it without data and waits; returns it and the file's bytes.
    private func storeAnimatedWithoutData() throws -> (UIImage, Data) {
        let gif = try gifCoder.decodeImage(from: try TestFixtures.data("animated.gif"))
        XCTAssertGreaterThan(gif.images?.count ?? 0, 1)
        XCTAssertEqual(gif.sd_imageFormat, .gif)
        let stored = expectation(description: "stored")
        fixture.cache.store(gif, imageData: nil, forKey: "k", toDisk: true) { stored.fulfill() }
        wait(for: [stored], timeout: 10)
        return (gif, try XCTUnwrap(fixture.cache.diskImageData(forKey: "k")))
    }

    /// Faithful side: the file is a PNG or JPEG, and the image read back has no frames.
    func test_MUS14_animatedImageStoredWithoutDataLosesItsFrames() throws {
        try MuseumSide.requireUnpatched("MUS-14")
        let (_, file) = try storeAnimatedWithoutData()
        XCTAssertTrue([0x89, 0xFF].contains(file.first), "a still PNG or JPEG, not GIF (4.4.8's bug)")
        fixture.cache.clearMemory()
        XCTAssertNil(fixture.cache.imageFromDiskCache(forKey: "k")?.images, "the frames are gone")
    }

    /// Fixed side (5.6.0): the file is a GIF and the image read back has every frame.
    func test_MUS14_fixed_animatedImageStoredWithoutDataStaysAGIF() throws {
        try MuseumSide.requirePatched("MUS-14")
        let (gif, file) = try storeAnimatedWithoutData()
        XCTAssertEqual(file.prefix(4), Data("GIF8".utf8))
        fixture.cache.clearMemory()
        XCTAssertEqual(fixture.cache.imageFromDiskCache(forKey: "k")?.images?.count, gif.images?.count)
    }
}
