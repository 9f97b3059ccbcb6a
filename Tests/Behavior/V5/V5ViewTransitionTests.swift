import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// The 5.x entry of the view binding (`sd_internalSetImage(with:placeholderImage:options:context:...)`,
/// `UIView+WebCache.m`, 5.x) and its transition rule, beside the 4.x entry's (V5-10). Main-actor tests on the
/// headless views, loading through a real manager, cache and loopback server.
final class V5ViewTransitionTests: XCTestCase {
    private var env: ManagerTestEnvironment!

    override func setUpWithError() throws {
        env = try ManagerTestEnvironment(namespace: "v5-view")
    }

    override func tearDown() {
        env.tearDown()
        env = nil
    }

    /// A URL whose image is on disk only (memory cleared); nil when the fixture does not load.
    private func diskOnlyURL(_ name: String) -> URL? {
        let url = env.server.url("/disk/\(name).png")
        guard let data = try? TestFixtures.data("rgba.png"),
            let image = try? SDWebImageCodersManager.shared.decodeImage(from: data)
        else { return nil }
        let stored = Recorder<Bool>()
        env.cache.storeImage(image, imageData: data, forKey: url.absoluteString, cacheType: .disk) {
            stored.append(true)
        }
        XCTAssertTrue(waitUntil { stored.count == 1 })
        env.cache.clearMemory()
        return url
    }

    /// Parity: V5-10 — both flows report the same disk hit as `.disk` to the view, so the difference in
    /// transitions is the view's rule alone. (Not main-actor: Linux XCTest's test list needs one such test to
    /// accept the main-actor ones beside it.)
    func test_V510_bothFlowsReportADiskHitAsDisk() throws {
        let url = try XCTUnwrap(diskOnlyURL("report"))
        XCTAssertEqual(env.load(url).calls.last?.cacheType, .disk)
        env.cache.clearMemory()
        XCTAssertEqual(env.loadV5Finished(url)?.cacheType, .disk)
        XCTAssertEqual(env.server.hits("/disk/report.png"), 0)
    }

    /// Parity: V5-10 — through the 5.x entry a disk hit is shown with the view's transition (5.x); through the 4.x
    /// entry the same disk hit is not (4.4.8: only downloads and ForceTransition). A memory hit gets none either
    /// way, nor does a disk hit read synchronously (`queryDiskDataSync`).
    @MainActor
    func test_V510_fiveXEntryAnimatesADiskHitAndTheFourXEntryDoesNot() {
        let steps = Recorder<String>()
        let transition = SDWebImageTransition.fade
        transition.prepares = { _, _, _, cacheType, _ in steps.append("prepares \(cacheType.rawValue)") }
        transition.completion = { finished in steps.append("completion \(finished)") }
        let imageView = UIImageView()
        imageView.sd_imageTransition = transition
        let v5Context: SDWebImageContext = [.customManager: env.manager]
        let v4Context: SDWebImageViewContext = [SDWebImageExternalCustomManagerKey: env.manager]

        guard let url = diskOnlyURL("hit") else { return XCTFail("rgba.png does not load") }
        let v4 = Recorder<SDImageCacheType>()
        imageView.sd_setImage(with: url, context: v4Context) { _, _, cacheType, _ in v4.append(cacheType) }
        XCTAssertTrue(waitUntil { v4.count == 1 })
        drainMainQueue()
        XCTAssertEqual(v4.values, [.disk])
        XCTAssertEqual(steps.values, [], "4.x entry: no transition for a disk hit")

        env.cache.clearMemory()
        let v5 = Recorder<SDImageCacheType>()
        imageView.image = nil
        imageView.sd_internalSetImage(
            with: url, placeholderImage: nil, options: [], context: v5Context,
            setImageBlock: nil, progress: nil
        ) { _, _, cacheType, _ in v5.append(cacheType) }
        XCTAssertTrue(waitUntil { steps.count == 2 && v5.count == 1 })
        XCTAssertEqual(v5.values, [.disk])
        XCTAssertEqual(steps.values, ["prepares 1", "completion true"], "5.x entry: a disk hit animates")
        XCTAssertNotNil(imageView.image)

        // In memory now: no transition through the 5.x entry either.
        let memory = Recorder<SDImageCacheType>()
        imageView.sd_internalSetImage(
            with: url, placeholderImage: nil, options: [], context: v5Context,
            setImageBlock: nil, progress: nil
        ) { _, _, cacheType, _ in memory.append(cacheType) }
        XCTAssertTrue(waitUntil { memory.count == 1 })
        drainMainQueue()
        XCTAssertEqual(memory.values, [.memory])
        XCTAssertEqual(steps.count, 2)

        // A synchronous disk read: no transition.
        env.cache.clearMemory()
        let sync = Recorder<SDImageCacheType>()
        imageView.sd_internalSetImage(
            with: url, placeholderImage: nil, options: [.queryDiskDataSync], context: v5Context,
            setImageBlock: nil, progress: nil
        ) { _, _, cacheType, _ in sync.append(cacheType) }
        XCTAssertTrue(waitUntil { sync.count == 1 })
        drainMainQueue()
        XCTAssertEqual(sync.values, [.disk])
        XCTAssertEqual(steps.count, 2)
    }

    /// Parity: V5-10 — the 5.x entry loads through the 5.x flow (a 5.x context key takes effect: the thumbnail
    /// size) and, as 5.x, a load replaced by a newer one on the same view answers once with
    /// `SDWebImageErrorCancelled` (2002); the 4.x entry's replaced load stays silent (4.4.8).
    @MainActor
    func test_V510_fiveXEntryUsesThe5xFlow() {
        env.server.route("/stall.png", .stall)
        let imageView = UIImageView()
        let v5Context: SDWebImageContext = [.customManager: env.manager]
        let replaced = Recorder<Int>()
        imageView.sd_internalSetImage(
            with: env.server.url("/stall.png"), placeholderImage: nil, options: [],
            context: v5Context, setImageBlock: nil, progress: nil
        ) { _, error, _, _ in
            replaced.append((error as NSError?)?.code ?? 0)
        }
        XCTAssertTrue(waitUntil { self.env.server.hits("/stall.png") == 1 })
        guard let url = try? env.serveFixture("baseline.jpg", at: "/thumb.jpg") else {
            return XCTFail("baseline.jpg does not load")
        }
        var thumbnail = v5Context
        thumbnail[.imageThumbnailPixelSize] = CGSize(width: 64, height: 64)
        let shown = Recorder<Int>()
        imageView.sd_internalSetImage(
            with: url, placeholderImage: nil, options: [], context: thumbnail,
            setImageBlock: nil, progress: nil
        ) { image, _, _, _ in
            shown.append(image?.pixelWidth ?? 0)
        }
        XCTAssertTrue(waitUntil { shown.count == 1 && replaced.count == 1 })
        drainMainQueue()
        XCTAssertEqual(replaced.values, [2002])
        XCTAssertEqual(shown.values, [64])
        XCTAssertEqual(imageView.image?.pixelWidth, 64)

        env.server.route("/stall4.png", .stall)
        let replaced4 = Recorder<Int>()
        let v4Context: SDWebImageViewContext = [SDWebImageExternalCustomManagerKey: env.manager]
        imageView.sd_setImage(with: env.server.url("/stall4.png"), context: v4Context) { _, error, _, _ in
            replaced4.append((error as NSError?)?.code ?? 0)
        }
        XCTAssertTrue(waitUntil { self.env.server.hits("/stall4.png") == 1 })
        imageView.sd_setImage(with: url, context: v4Context) { _, _, _, _ in }
        XCTAssertTrue(waitUntil { imageView.image?.pixelWidth != 64 })
        XCTAssertTrue(env.waitForDownloadsToEnd(), "the replaced download ended")
        XCTAssertEqual(replaced4.count, 0, "4.4.8: the replaced load calls nothing")
    }
}
