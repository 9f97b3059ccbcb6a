import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// MUS-01: a load started inside a synchronous completion is cancelled by the outer call. 4.4.8 stores a view's
/// new operation only after the manager returns, cancelling whatever sits under the key at that moment
/// (`UIView+WebCacheOperation.m:32-42`, `UIView+WebCache.m:194`); a memory hit answers before the manager returns
/// (`SDImageCache.m:515-521`, `SDWebImageCompat.h:97-102`). The patch takes the cancel out, as 5.18.0 did.
final class MUS01_ReentrantLoadTests: XCTestCase {
    private var env: ManagerTestEnvironment!

    override func setUpWithError() throws { env = try ManagerTestEnvironment(namespace: "mus01") }
    override func tearDown() {
        env.tearDown()
        env = nil
    }

    /// Thumbnail T sits in the memory cache; F is served by the loopback server. Returns both URLs and T.
    private func prepare() throws -> (urlT: URL, urlF: URL, thumbnail: UIImage, context: SDWebImageViewContext) {
        let urlF = try env.serveFixture("rgba.png", at: "/F.png")
        let urlT = env.server.url("/T.png")
        let thumbnail = UIImage(
            pixelWidth: 2, pixelHeight: 2, pixels: [UInt8](repeating: 90, count: 16), hasAlpha: false)
        env.cache.storeImage(toMemory: thumbnail, forKey: env.manager.cacheKey(for: urlT))
        return (urlT, urlF, thumbnail, [SDWebImageExternalCustomManagerKey: env.manager])
    }

    /// Faithful side: the inner load (F) is registered first, then the outer call registers its finished operation
    /// and cancels F's. F's completion never comes and the server never sees F.
    func test_MUS01_innerLoadStartedFromASynchronousCompletionIsCancelled() throws {
        try MuseumSide.requireUnpatched("MUS-01")
        // XCTest runs each test on the main thread, and the closure runs at once, on it.
        nonisolated(unsafe) let test = self
        try MainActor.assumeIsolated {
            let (urlT, urlF, _, context) = try test.prepare()
            let imageView = UIImageView()
            let outerCalls = Locked(0)
            let innerCalls = Locked(0)
            imageView.sd_internalSetImage(
                with: urlT, placeholderImage: nil, options: [], operationKey: nil, setImageBlock: nil,
                progress: nil,
                completed: { _, _, _, _ in
                    outerCalls.value += 1
                    imageView.sd_internalSetImage(
                        with: urlF, placeholderImage: nil, options: [], operationKey: nil,
                        setImageBlock: nil, progress: nil,
                        completed: { _, _, _, _ in innerCalls.value += 1 }, context: context)
                }, context: context)
            XCTAssertEqual(outerCalls.value, 1, "a memory hit answers before the outer call returns")
            XCTAssertFalse(test.env.manager.isRunning, "F's load was cancelled by the outer call's bookkeeping")
            drainMainQueue()
            test.env.cache.ioQueue.sync {}
            drainMainQueue()
            XCTAssertEqual(innerCalls.value, 0, "the inner completion never comes (4.4.8's bug)")
            XCTAssertNil(imageView.image, "F's nil placeholder replaced T, and F never comes: the view stays empty")
            XCTAssertEqual(test.env.server.hits("/F.png"), 0, "F never reached the downloader")
        }
    }

    /// Fixed side (5.18.0): storing an operation no longer cancels what is under the key, so F survives the outer
    /// call, downloads and shows.
    func test_MUS01_fixed_innerLoadSurvivesTheOuterCall() throws {
        try MuseumSide.requirePatched("MUS-01")
        // XCTest runs each test on the main thread, and the closure runs at once, on it.
        nonisolated(unsafe) let test = self
        try MainActor.assumeIsolated {
            let (urlT, urlF, thumbnail, context) = try test.prepare()
            let imageView = UIImageView()
            let innerDone = test.expectation(description: "F's completion")
            let innerImages = Locked<[UIImage?]>([])
            imageView.sd_internalSetImage(
                with: urlT, placeholderImage: nil, options: [], operationKey: nil, setImageBlock: nil,
                progress: nil,
                completed: { _, _, _, _ in
                    imageView.sd_internalSetImage(
                        with: urlF, placeholderImage: nil, options: [], operationKey: nil,
                        setImageBlock: nil, progress: nil,
                        completed: { image, _, _, _ in
                            innerImages.update { $0.append(image) }
                            innerDone.fulfill()
                        }, context: context)
                }, context: context)
            XCTAssertTrue(test.env.manager.isRunning, "F's load survived the outer call")
            test.wait(for: [innerDone], timeout: 30)
            drainMainQueue()
            XCTAssertEqual(innerImages.value.count, 1)
            XCTAssertNotNil(innerImages.value.first ?? nil)
            XCTAssertFalse(imageView.image === thumbnail)
            XCTAssertTrue(imageView.image === innerImages.value.first ?? nil, "the view shows F")
            XCTAssertEqual(test.env.server.hits("/F.png"), 1)
        }
    }
}
