import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// Transformers (`SDImageTransformer.m`, 5.x) and the manager's transform step (`callTransformProcessForOperation`,
/// `callStoreOriginCacheProcessForOperation`, `callStoreCacheProcessForOperation`, `SDWebImageManager.m`, 5.x).
final class V5TransformerTests: XCTestCase {
    private var env: ManagerTestEnvironment!

    override func setUpWithError() throws {
        env = try ManagerTestEnvironment(namespace: "v5-transform")
    }

    override func tearDown() {
        env.tearDown()
        env = nil
    }

    private func decodedFixture(_ name: String) throws -> UIImage {
        try SDWebImageCodersManager.shared.decodeImage(from: TestFixtures.data(name))
    }

    /// Parity: V5-02 — `SDTransformedKeyForKey` puts `-<transformerKey>` before the extension, keeps a URL's query,
    /// appends to keys without extension, and gives nil for nil.
    func test_V502_transformedKeyKeepsTheExtensionLast() {
        XCTAssertEqual(SDTransformedKeyForKey("http://h.test/a/b.png?x=1", "T"), "http://h.test/a/b-T.png?x=1")
        XCTAssertEqual(SDTransformedKeyForKey("http://h.test/a/b", "T"), "http://h.test/a/b-T")
        XCTAssertEqual(SDTransformedKeyForKey("plain-key", "T"), "plain-key-T")
        XCTAssertEqual(SDTransformedKeyForKey("/tmp/pic.jpg", "T"), "/tmp/pic-T.jpg")
        XCTAssertEqual(SDTransformedKeyForKey("file:///tmp/pic.jpg", "T"), "file:///tmp/pic-T.jpg")
        XCTAssertNil(SDTransformedKeyForKey(nil, "T"))
    }

    /// Parity: V5-02 — flipping mirrors the pixels; a pipeline's key joins its steps' keys with "-" and runs them
    /// in order (two horizontal flips give the original pixels back).
    func test_V502_flippingAndPipelineTransformPixels() throws {
        let image = try decodedFixture("gradient.png")
        let flip = SDImageFlippingTransformer(horizontal: true, vertical: false)
        XCTAssertEqual(flip.transformerKey, "SDImageFlippingTransformer(1,0)")
        let flipped = try XCTUnwrap(flip.transformedImage(with: image, forKey: "k"))
        XCTAssertEqual(flipped.pixel(x: 0, y: 5).r, image.pixel(x: 255, y: 5).r)
        XCTAssertEqual(flipped.pixel(x: 0, y: 5).b, image.pixel(x: 255, y: 5).b)

        let vertical = try XCTUnwrap(
            SDImageFlippingTransformer(horizontal: false, vertical: true)
                .transformedImage(with: image, forKey: "k"))
        XCTAssertEqual(vertical.pixel(x: 7, y: 0).g, image.pixel(x: 7, y: 191).g)

        let pipeline = SDImagePipelineTransformer(transformers: [flip, flip])
        XCTAssertEqual(pipeline.transformerKey, "SDImageFlippingTransformer(1,0)-SDImageFlippingTransformer(1,0)")
        let twice = try XCTUnwrap(pipeline.transformedImage(with: image, forKey: "k"))
        XCTAssertEqual(twice.pixels, image.pixels)
    }

    /// Parity: V5-02 — resizing: fill stretches, aspect fit pads with transparency, aspect fill crops.
    func test_V502_resizingModes() throws {
        let image = try decodedFixture("gradient.png")  // 256×192, opaque
        let fill = try XCTUnwrap(
            SDImageResizingTransformer(size: CGSize(width: 64, height: 64), scaleMode: .fill)
                .transformedImage(with: image, forKey: "k"))
        XCTAssertEqual([fill.pixelWidth, fill.pixelHeight], [64, 64])

        let fit = try XCTUnwrap(
            SDImageResizingTransformer(size: CGSize(width: 100, height: 100), scaleMode: .aspectFit)
                .transformedImage(with: image, forKey: "k"))
        XCTAssertEqual([fit.pixelWidth, fit.pixelHeight], [100, 100])
        XCTAssertTrue(fit.hasAlpha)
        XCTAssertEqual(fit.pixel(x: 50, y: 0).a, 0, "75-pixel-high picture centred: the top rows are empty")
        XCTAssertEqual(fit.pixel(x: 50, y: 50).a, 255)

        let fillCrop = try XCTUnwrap(
            SDImageResizingTransformer(size: CGSize(width: 50, height: 50), scaleMode: .aspectFill)
                .transformedImage(with: image, forKey: "k"))
        XCTAssertEqual([fillCrop.pixelWidth, fillCrop.pixelHeight], [50, 50])
        XCTAssertFalse(fillCrop.hasAlpha)
        XCTAssertEqual(fillCrop.pixel(x: 0, y: 0).a, 255)
    }

    /// Parity: V5-02 — a downloaded image is transformed, delivered with nil data, stored under the transformed
    /// key (memory and disk, `storeCacheType` `.all`) while the original goes to disk only under the URL's key
    /// (`originalStoreCacheType` `.disk`). The next load is a memory hit on the transformed key.
    func test_V502_downloadIsTransformedAndCachedUnderTheTransformedKey() throws {
        let url = try env.serveFixture("gradient.png", at: "/g.png")
        let flip = SDImageFlippingTransformer(horizontal: true, vertical: false)
        let context: SDWebImageContext = [.imageTransformer: flip]
        let original = try decodedFixture("gradient.png")

        let call = try XCTUnwrap(env.loadV5Finished(url, context: context))
        XCTAssertNil(call.error)
        XCTAssertNil(call.data, "a transformed image no longer matches the downloaded bytes")
        let image = try XCTUnwrap(call.image)
        XCTAssertEqual(image.pixel(x: 0, y: 9).r, original.pixel(x: 255, y: 9).r)

        let transformedKey = try XCTUnwrap(env.manager.cacheKey(for: url, context: context))
        XCTAssertEqual(transformedKey, SDTransformedKeyForKey(url.absoluteString, flip.transformerKey))
        XCTAssertTrue(env.cache.imageFromMemoryCache(forKey: transformedKey) === image)
        XCTAssertEqual(env.diskImageExists(forKey: transformedKey), true)
        XCTAssertNil(env.cache.imageFromMemoryCache(forKey: url.absoluteString))
        XCTAssertEqual(env.diskImageExists(forKey: url.absoluteString), true)
        XCTAssertEqual(env.cache.diskImageData(forKey: url.absoluteString), try TestFixtures.data("gradient.png"))

        let again = try XCTUnwrap(env.loadV5Finished(url, context: context))
        XCTAssertEqual(again.cacheType, .memory)
        XCTAssertEqual(env.server.hits("/g.png"), 1)
    }

    /// Parity: V5-02 — a miss on the transformed key finds the original on disk and transforms it without
    /// downloading.
    func test_V502_cachedOriginalIsTransformedWithoutDownloading() throws {
        let url = try env.serveFixture("gradient.png", at: "/o.png")
        try env.cache.writeImageDataToDisk(try TestFixtures.data("gradient.png"), forKey: url.absoluteString)
        let flip = SDImageFlippingTransformer(horizontal: false, vertical: true)
        let call = try XCTUnwrap(env.loadV5Finished(url, context: [.imageTransformer: flip]))
        XCTAssertNil(call.error)
        XCTAssertEqual(call.cacheType, .disk)
        let original = try decodedFixture("gradient.png")
        XCTAssertEqual(call.image?.pixel(x: 3, y: 0).g, original.pixel(x: 3, y: 191).g)
        XCTAssertEqual(env.server.hits("/o.png"), 0)
    }

    /// Parity: V5-02 — animated images are left untransformed unless `transformAnimatedImage` is given; then every
    /// frame is transformed.
    func test_V502_animatedImagesNeedTransformAnimatedImage() throws {
        // 5.x decodes GIFs animated by default (its coders include SDImageGIFCoder); 4.4.8's default set, which
        // the port's shared coders follow, does not, so the animated coder is added as a 4.4.8 app would.
        try AnimatedGIFCoding.enabled {
            let url = try env.serveFixture("animated.gif", at: "/a.gif")
            let resize = SDImageResizingTransformer(size: CGSize(width: 10, height: 10), scaleMode: .fill)
            let plain = try XCTUnwrap(env.loadV5Finished(url, context: [.imageTransformer: resize])?.image)
            XCTAssertEqual(plain.pixelWidth, 20)
            XCTAssertEqual(plain.distinctFrames.count, 5)

            let resized = try XCTUnwrap(
                env.loadV5Finished(
                    url, options: [.transformAnimatedImage, .fromLoaderOnly],
                    context: [.imageTransformer: resize])?.image)
            XCTAssertEqual(resized.distinctFrames.count, 5)
            XCTAssertEqual(resized.distinctFrames.map(\.pixelWidth), [10, 10, 10, 10, 10])
            XCTAssertEqual(resized.frameDurations, plain.frameDurations)
        }
    }
}
