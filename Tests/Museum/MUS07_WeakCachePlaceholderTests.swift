import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// MUS-07: the placeholder defeats the weak memory cache. 4.4.8 sets the placeholder before it asks the manager
/// (`UIView+WebCache.m:87-94` then `:121`); when the view held the last strong reference to the image the weak
/// table still knew (`SDImageCache.m:91-103`), the placeholder frees it and the query goes to disk. The patch
/// looks the key up first, as 5.12.0.
final class MUS07_WeakCachePlaceholderTests: XCTestCase {
    private var env: ManagerTestEnvironment!

    override func setUpWithError() throws { env = try ManagerTestEnvironment(namespace: "mus07") }
    override func tearDown() {
        env.tearDown()
        env = nil
    }

    /// Stores A (memory and disk), shows it in `imageView` through a memory hit, and returns a weak reference to
    /// A: a function of its own, so the view holds A's only strong reference afterwards.
    @MainActor
    private func show(in imageView: UIImageView, url: URL, context: SDWebImageViewContext) throws -> WeakReference {
        let imageA = UIImage(
            pixelWidth: 4, pixelHeight: 4, pixels: [UInt8](repeating: 77, count: 64), hasAlpha: false,
            format: .png)
        let data = try XCTUnwrap(SDWebImageCodersManager.shared.encodedData(with: imageA, format: .png))
        // Both stores are synchronous and keep no block alive that holds A (an asynchronous store's io-queue block
        // could still hold it when the placeholder is set).
        let key = env.manager.cacheKey(for: url)
        env.cache.storeImageData(toDisk: data, forKey: key)
        env.cache.storeImage(toMemory: imageA, forKey: key)
        imageView.sd_internalSetImage(
            with: url, placeholderImage: nil, options: [], operationKey: nil, setImageBlock: nil,
            progress: nil, completed: nil, context: context)
        XCTAssertTrue(imageView.image === imageA, "a memory hit, set at once")
        let weakA = WeakReference()
        weakA.object = imageA
        return weakA
    }

    /// Loads `url` again into the view with a placeholder, after a memory warning; returns the completion's
    /// image and cache type.
    @MainActor
    private func reload(_ imageView: UIImageView, url: URL, context: SDWebImageViewContext) -> (
        UIImage?, SDImageCacheType
    ) {
        // The strong half of the memory cache empties; the weak table keeps A while the view shows it. Nothing
        // looks the key up in between: a lookup would put A back into the strong half.
        NotificationCenter.default.post(name: UIApplication.didReceiveMemoryWarningNotification, object: nil)
        let placeholder = UIImage(pixelWidth: 1, pixelHeight: 1, pixels: [0, 0, 0, 255], hasAlpha: false)
        let done = expectation(description: "reload")
        let answer = Locked<(UIImage?, SDImageCacheType)>((nil, .none))
        imageView.sd_internalSetImage(
            with: url, placeholderImage: placeholder, options: [], operationKey: nil,
            setImageBlock: nil, progress: nil,
            completed: { image, _, cacheType, _ in
                answer.value = (image, cacheType)
                done.fulfill()
            }, context: context)
        wait(for: [done], timeout: 30)
        return answer.value
    }

    /// Faithful side: the placeholder frees A before the query, so the reload reads the disk.
    func test_MUS07_placeholderFreesTheImageTheWeakCacheHeld() throws {
        try MuseumSide.requireUnpatched("MUS-07")
        // XCTest runs each test on the main thread, and the closure runs at once, on it.
        nonisolated(unsafe) let test = self
        try MainActor.assumeIsolated {
            XCTAssertTrue(test.env.cache.config.shouldUseWeakMemoryCache, "4.4.8's default")
            let url = test.env.server.url("/a.png")
            let context: SDWebImageViewContext = [SDWebImageExternalCustomManagerKey: test.env.manager]
            let imageView = UIImageView()
            let weakA = try test.show(in: imageView, url: url, context: context)
            let (image, cacheType) = test.reload(imageView, url: url, context: context)
            XCTAssertEqual(cacheType, .disk, "read from disk again (4.4.8's bug)")
            XCTAssertNil(weakA.object, "the placeholder freed A before the query")
            XCTAssertNotNil(image)
        }
    }

    /// Fixed side (5.12.0): the key is looked up before the placeholder is set, so A goes back into memory.
    func test_MUS07_fixed_weakCacheSurvivesThePlaceholder() throws {
        try MuseumSide.requirePatched("MUS-07")
        // XCTest runs each test on the main thread, and the closure runs at once, on it.
        nonisolated(unsafe) let test = self
        try MainActor.assumeIsolated {
            let url = test.env.server.url("/a.png")
            let context: SDWebImageViewContext = [SDWebImageExternalCustomManagerKey: test.env.manager]
            let imageView = UIImageView()
            let weakA = try test.show(in: imageView, url: url, context: context)
            let (image, cacheType) = test.reload(imageView, url: url, context: context)
            XCTAssertEqual(cacheType, .memory)
            XCTAssertNotNil(weakA.object)
            XCTAssertTrue(image === weakA.object, "the same image object, from the weak table")
        }
    }
}
