import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// V5-12, the view half: the 5.x view flow (`sd_internalSetImage(with:placeholderImage:options:context:...)` and the
/// public 5.x entries of image views and buttons) has 5.21.5's fixes for a load started inside a synchronous
/// completion, a transition of a load the view moved on from, and the weak memory cache under a placeholder.
/// Main-actor tests on the headless views, loading through a real manager, cache and loopback server.
final class V512_ViewFixesTests: XCTestCase {
    private var env: ManagerTestEnvironment!

    override func setUpWithError() throws {
        env = try ManagerTestEnvironment(namespace: "v512-view")
    }

    override func tearDown() {
        env.tearDown()
        env = nil
    }

    private var context: SDWebImageContext { [.customManager: env.manager] }

    /// A decoded fixture image (a 1-pixel image, and a failure, when it does not load). Main-actor tests here do
    /// not throw: Linux XCTest's test list cannot hold a throwing main-actor test beside a non-main-actor one.
    private func image(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> UIImage {
        do {
            return try SDWebImageCodersManager.shared.decodeImage(from: try TestFixtures.data(name))
        } catch {
            XCTFail("\(name) does not load: \(error)", file: file, line: line)
            return UIImage(pixelWidth: 1, pixelHeight: 1, pixels: [0, 0, 0, 0], hasAlpha: true)
        }
    }

    /// Serves a fixture (see `image(_:)` for why this does not throw).
    private func serve(_ name: String, at path: String, file: StaticString = #filePath, line: UInt = #line) -> URL {
        do {
            return try env.serveFixture(name, at: path)
        } catch {
            XCTFail("\(name) does not load: \(error)", file: file, line: line)
            return env.server.url(path)
        }
    }

    /// V5-12 — the public entries are told apart by the options' type: with `SDWebImageV5Options` and a 5.x context
    /// an image view loads through the 5.x flow (a nil URL fails with InvalidURL 1000, a thumbnail size applies);
    /// with 4.4.8's `SDWebImageOptions` the same view keeps the 4.4.8 flow (code -1). (Not main-actor: Linux
    /// XCTest's test list needs one such test to accept the main-actor ones beside it.)
    func test_V512_publicImageViewEntryIsThe5xFlow() throws {
        let url = try env.serveFixture("baseline.jpg", at: "/public.jpg")
        let codes = Recorder<Int>()
        let widths = Recorder<Int>()
        let context = self.context
        // Held here: a view that is gone when its load answers is not called back (both flows hold it weakly).
        let imageView = MainActor.assumeIsolated { UIImageView() }
        MainActor.assumeIsolated {
            imageView.sd_setImage(
                with: nil, placeholderImage: nil, options: SDWebImageV5Options(), context: context,
                progress: nil
            ) { _, error, _, _ in codes.append((error as NSError?)?.code ?? 0) }
            imageView.sd_setImage(with: nil, placeholderImage: nil, options: SDWebImageOptions()) { _, error, _, _ in
                codes.append((error as NSError?)?.code ?? 0)
            }
            var thumbnail = context
            thumbnail[.imageThumbnailPixelSize] = CGSize(width: 64, height: 64)
            imageView.sd_setImage(with: url, placeholderImage: nil, options: [], context: thumbnail, progress: nil) {
                image, _, _, _ in widths.append(image?.pixelWidth ?? 0)
            }
        }
        XCTAssertTrue(waitUntil { codes.count == 2 && widths.count == 1 })
        XCTAssertEqual(codes.values, [1000, -1])
        XCTAssertEqual(widths.values, [64])
        withExtendedLifetime(imageView) {}
    }

    /// V5-12 — a button's public 5.x entry loads under the state's operation key, sets the image for that state
    /// and remembers the URL for it; a newer load for the same state answers the replaced one with 2002.
    @MainActor
    func test_V512_publicButtonEntryUsesTheStateKey() {
        env.server.route("/stall.png", .stall)
        let stall = env.server.url("/stall.png")
        let url = serve("gradient.png", at: "/button.png")
        let button = UIButton()
        let replaced = Recorder<Int>()
        button.sd_setImage(
            with: stall, for: .highlighted, placeholderImage: nil, options: [], context: context,
            progress: nil
        ) { _, error, _, _ in replaced.append((error as NSError?)?.code ?? 0) }
        let key = UIButton.sd_imageOperationKey(for: .highlighted)
        XCTAssertEqual(button.sd_latestOperationKey, key)
        XCTAssertNotNil(button.sd_imageLoadOperation(forKey: key))
        XCTAssertEqual(button.sd_imageURL(for: .highlighted), stall)

        let shown = Recorder<Bool>()
        button.sd_setImage(
            with: url, for: .highlighted, placeholderImage: nil, options: [], context: context,
            progress: nil
        ) { image, _, _, _ in shown.append(image != nil) }
        XCTAssertTrue(waitUntil { shown.count == 1 })
        XCTAssertEqual(replaced.values, [2002])
        XCTAssertNotNil(button.image(for: .highlighted))
        XCTAssertNil(button.image(for: .normal))
        XCTAssertEqual(button.sd_imageURL(for: .highlighted), url)
    }

    /// V5-12 (5.18.0's fix) — a memory hit completes before `sd_setImage` returns; a load started inside that
    /// completion on the same view survives the outer call, which stores its own operation over it without
    /// cancelling it: the inner load downloads and shows its image.
    @MainActor
    func test_V512_loadStartedInsideASynchronousCompletionSurvives() {
        let thumbnailURL = env.server.url("/thumbnail.png")
        let thumbnail = image("gradient.png")
        env.cache.storeImage(toMemory: thumbnail, forKey: thumbnailURL.absoluteString)
        let fullURL = serve("baseline.jpg", at: "/full.jpg")
        let full = image("baseline.jpg")
        let imageView = UIImageView()
        let context = self.context
        let outer = Recorder<SDImageCacheType>()
        let inner = Recorder<(Int?, Int)>()
        imageView.sd_setImage(with: thumbnailURL, placeholderImage: nil, options: [], context: context, progress: nil) {
            _, _, cacheType, _ in
            outer.append(cacheType)
            imageView.sd_setImage(with: fullURL, placeholderImage: nil, options: [], context: context, progress: nil) {
                image, error, _, _ in inner.append(((error as NSError?)?.code, image?.pixelWidth ?? 0))
            }
        }
        XCTAssertEqual(outer.values, [.memory], "the memory hit completed inside the call")
        XCTAssertTrue(env.manager.isRunning, "the inner load still runs")

        XCTAssertTrue(waitUntil { inner.count == 1 })
        XCTAssertNil(inner.values.first?.0, "not cancelled")
        XCTAssertEqual(inner.values.first?.1, full.pixelWidth)
        XCTAssertEqual(imageView.image?.pixelWidth, full.pixelWidth)
        XCTAssertEqual(env.server.hits("/full.jpg"), 1)
        drainMainQueue()
        XCTAssertEqual(inner.count, 1)
    }

    /// V5-12 (5.9.4's check, as 5.21.5 keeps it) — a forced transition of a memory hit sets its image one main-queue
    /// turn later. When the view has started a load under another operation key by then, no step of the
    /// transition runs, and the newer load's placeholder stays. 5.18.0 stopped clearing the key on cancel, so a
    /// cancel followed by an image set by hand still ends with the cancelled load's image, as in 5.21.5.
    @MainActor
    func test_V512_transitionDoesNotSetTheImageOfALoadTheViewMovedOnFrom() {
        env.server.route("/stall.png", .stall)
        let url = env.server.url("/a.png")
        let loaded = image("gradient.png")
        env.cache.storeImage(toMemory: loaded, forKey: url.absoluteString)
        let placeholder = image("baseline.jpg")
        let steps = Recorder<String>()
        let transition = SDWebImageTransition.fade
        transition.prepares = { _, _, _, _, _ in steps.append("prepares") }
        transition.animations = { _, _ in steps.append("animations") }
        transition.completion = { _ in steps.append("completion") }

        // Moved on: a load under another key starts before the transition's second step.
        let imageView = UIImageView()
        imageView.sd_imageTransition = transition
        imageView.sd_setImage(
            with: url, placeholderImage: nil, options: [.forceTransition], context: context,
            progress: nil, completed: nil)
        XCTAssertEqual(steps.values, ["prepares"], "the first, zero-length step ran at once")
        var other = context
        other[.setImageOperationKey] = "other"
        imageView.sd_internalSetImage(
            with: env.server.url("/stall.png"), placeholderImage: placeholder, options: [],
            context: other, setImageBlock: nil, progress: nil, completed: nil)
        drainMainQueue()
        drainMainQueue()
        XCTAssertTrue(imageView.image === placeholder, "the newer load's placeholder stays")
        XCTAssertEqual(steps.values, ["prepares"], "neither the image step nor the completion ran")

        // Cancelled, then set by hand: 5.21.5 still finishes the transition (the key is not cleared).
        let second = UIImageView()
        second.sd_imageTransition = transition
        second.sd_setImage(
            with: url, placeholderImage: nil, options: [.forceTransition], context: context,
            progress: nil, completed: nil)
        second.sd_cancelLatestImageLoad()
        second.image = placeholder
        drainMainQueue()
        drainMainQueue()
        XCTAssertTrue(second.image === loaded, "as 5.21.5: the cancelled load's image is set")
        XCTAssertEqual(steps.values, ["prepares", "prepares", "animations", "completion"])
    }

    /// V5-12 (5.12.0's fix) — with the weak memory cache on, the view looks the key up before its placeholder lets
    /// go of the image a memory warning left only in the weak table: the load is a memory hit with that same
    /// image. With the weak cache off the same steps read the disk.
    @MainActor
    func test_V512_weakCacheIsSyncedBeforeThePlaceholderHidesTheImage() {
        let url = env.server.url("/weak.png")
        guard let data = try? TestFixtures.data("gradient.png") else { return XCTFail("gradient.png does not load") }
        let placeholder = image("baseline.jpg")
        for weakCache in [true, false] {
            env.cache.config.shouldUseWeakMemoryCache = weakCache
            env.cache.clearMemory()
            let imageView = UIImageView()
            let weakImage = WeakReference()
            showOnlyInTheView(url, data: data, in: imageView, remember: weakImage)
            NotificationCenter.default.post(name: UIApplication.didReceiveMemoryWarningNotification, object: nil)

            let answer = Recorder<(SDImageCacheType, ObjectIdentifier?)>()
            imageView.sd_setImage(
                with: url, placeholderImage: placeholder, options: [], context: context, progress: nil
            ) {
                image, _, cacheType, _ in answer.append((cacheType, image.map(ObjectIdentifier.init)))
            }
            XCTAssertTrue(waitUntil { answer.count == 1 }, "weak cache \(weakCache)")
            guard let (cacheType, shown) = answer.values.first else { return XCTFail("no answer") }
            if weakCache {
                XCTAssertEqual(cacheType, .memory, "the weak table's image went back into the cache in time")
                XCTAssertNotNil(weakImage.object)
                XCTAssertEqual(shown, weakImage.object.map(ObjectIdentifier.init), "the very same image")
            } else {
                XCTAssertEqual(cacheType, .disk, "without the weak table the placeholder freed it")
                XCTAssertNil(weakImage.object)
            }
        }
    }

    /// Stores the decoded `data` in memory and on disk, shows it in `imageView` through the 5.x entry (a memory
    /// hit), and keeps only a weak reference to it: the view is its one strong holder outside the cache.
    @MainActor
    private func showOnlyInTheView(_ url: URL, data: Data, in imageView: UIImageView, remember: WeakReference) {
        guard let decoded = try? SDWebImageCodersManager.shared.decodeImage(from: data) else {
            return XCTFail("the data does not decode")
        }
        let stored = Recorder<Bool>()
        env.cache.store(decoded, imageData: data, forKey: url.absoluteString, toDisk: true) { stored.append(true) }
        XCTAssertTrue(waitUntil { stored.count == 1 })
        let shown = Recorder<SDImageCacheType>()
        imageView.sd_setImage(with: url, placeholderImage: nil, options: [], context: context, progress: nil) {
            _, _, cacheType, _ in shown.append(cacheType)
        }
        XCTAssertEqual(shown.values, [.memory])
        XCTAssertTrue(imageView.image === decoded)
        remember.object = decoded
    }
}
