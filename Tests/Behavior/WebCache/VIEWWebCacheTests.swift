import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// The view binding (`UIView+WebCache`, `UIView+WebCacheOperation`, `UIImageView+WebCache`,
/// `UIImageView+HighlightedWebCache`, `UIButton+WebCache`, `SDWebImageTransition`, 4.4.8; the indicator is
/// 5.x) on the headless stand-in views, loading through a real manager, cache and loopback server.
///
/// Views are main-actor isolated, so these tests are too; XCTest runs them on the main thread.
final class VIEWWebCacheTests: XCTestCase {
    private var env: ManagerTestEnvironment!

    override func setUpWithError() throws {
        env = try ManagerTestEnvironment()
    }

    override func tearDown() {
        env.tearDown()
        env = nil
    }

    /// The context that makes a view load through this test's manager.
    private var context: SDWebImageViewContext { [SDWebImageExternalCustomManagerKey: env.manager] }

    private func makeImage(_ value: UInt8 = 120, width: Int = 3) -> UIImage {
        UIImage(
            pixelWidth: width, pixelHeight: 2, pixels: [UInt8](repeating: value, count: width * 2 * 4),
            hasAlpha: false, format: .png)
    }

    /// A URL whose image already sits in the memory cache.
    private func memoryURL(_ name: String, image: UIImage? = nil) -> (URL, UIImage) {
        let url = env.server.url("/memory/\(name).png")
        let stored = image ?? makeImage()
        env.cache.storeImage(toMemory: stored, forKey: url.absoluteString)
        return (url, stored)
    }

    /// Records the view completions of a test.
    private final class Completions: @unchecked Sendable {
        struct Call: Sendable {
            let image: UIImage?
            let error: Error?
            let cacheType: SDImageCacheType
            let url: URL?
        }
        let recorder = Recorder<Call>()
        var block: SDExternalCompletionBlock {
            { [recorder] image, error, cacheType, url in
                recorder.append(Call(image: image, error: error, cacheType: cacheType, url: url))
            }
        }
        var count: Int { recorder.count }
        var last: Call? { recorder.values.last }
    }

    // MARK: VIEW-01

    /// Parity: VIEW-01 — every `sd_setImage` family goes through `sd_internalSetImage` (each reports the
    /// `viewSetImage` step with its operation key) and sets the image through it.
    @MainActor
    func test_VIEW01_everyVariantGoesThroughInternalSetImage() {
        let events = Recorder<SDWebImageTraceEvent>()
        let token = SDWebImageTrace.addObserver { event in
            if event.step == .viewSetImage { events.append(event) }
        }
        defer { SDWebImageTrace.removeObserver(token) }

        let imageView = UIImageView()
        let button = UIButton()
        let (plain, plainImage) = memoryURL("plain")
        let (previous, _) = memoryURL("previous")
        let (highlighted, highlightedImage) = memoryURL("highlighted")
        let (selected, selectedImage) = memoryURL("selected")
        let (background, backgroundImage) = memoryURL("background")
        imageView.sd_setImage(with: plain, context: context)
        imageView.sd_setImageWithPreviousCachedImage(with: previous, context: context, completed: nil)
        imageView.sd_setHighlightedImage(with: highlighted, context: context)
        button.sd_setImage(with: selected, for: .selected, context: context)
        button.sd_setBackgroundImage(with: background, for: .normal, context: context)
        XCTAssertTrue(waitUntil { button.backgroundImage(for: .normal) != nil && imageView.highlightedImage != nil })

        let keys = events.values.filter { $0.key?.contains("/memory/") == true }.map(\.detail)
        XCTAssertEqual(
            keys,
            [
                "UIImageView, key UIImageView", "UIImageView, key UIImageView",
                "UIImageView, key UIImageViewImageOperationHighlighted",
                "UIButton, key UIButtonImageOperation4", "UIButton, key UIButtonBackgroundImageOperation0",
            ])
        XCTAssertNotNil(imageView.image)
        XCTAssertFalse(imageView.image === plainImage, "the later load on the same key replaced it")
        XCTAssertTrue(imageView.highlightedImage === highlightedImage)
        XCTAssertTrue(button.image(for: .selected) === selectedImage)
        XCTAssertNil(button.image(for: .normal))
        XCTAssertTrue(button.backgroundImage(for: .normal) === backgroundImage)
    }

    /// Parity: VIEW-01, MGR-10 — a manager that delivers on another queue still has the view set its image and
    /// call its completion on the main thread.
    @MainActor
    func test_VIEW01_managerOnAnotherQueueStillCompletesOnMain() {
        let queue = DispatchQueue(label: "sdport.test.view.completions")
        env.manager.completionQueue = queue
        env.cache.completionQueue = queue
        env.downloader.completionQueue = queue
        let url = env.serveOrFail("rgba.png")
        let imageView = UIImageView()
        let onMain = Recorder<Bool>()
        imageView.sd_setImage(with: url, context: context) { image, _, _, _ in
            onMain.append(Thread.isMainThread && image != nil)
        }
        XCTAssertTrue(waitUntil { onMain.count == 1 })
        XCTAssertEqual(onMain.values, [true])
        XCTAssertNotNil(imageView.image)
    }

    // MARK: VIEW-02

    /// Parity: VIEW-02 — the default key is `NSStringFromClass([self class])` (`UIView+WebCache.m:82`): the bare name
    /// for UIKit's classes ("UIImageView"), the module-qualified name for a program's Swift subclass.
    @MainActor
    func test_VIEW02_defaultKeyOfASwiftSubclassIsModuleQualified() {
        env.server.route("/stall.png", .stall)
        let avatar = VIEWAvatarView()
        avatar.sd_setImage(with: env.server.url("/stall.png"), context: context, completed: nil)
        XCTAssertNotNil(avatar.sd_imageLoadOperation(forKey: "BehaviorTests.VIEWAvatarView"))
        XCTAssertNil(avatar.sd_imageLoadOperation(forKey: "VIEWAvatarView"))
        avatar.sd_cancelCurrentImageLoad()
        XCTAssertNil(
            avatar.sd_imageLoadOperation(forKey: "BehaviorTests.VIEWAvatarView"), "cancelled under the same key")
    }

    /// Parity: VIEW-02 — the operation key defaults to the class name; a new load on that key cancels the running
    /// one, whose completion is never called; a load on another key is left alone.
    @MainActor
    func test_VIEW02_newLoadCancelsRunningLoadForSameKey() {
        env.server.route("/stall.png", .stall)
        let imageView = UIImageView()
        let first = Completions()
        let highlighted = Completions()
        imageView.sd_setImage(with: env.server.url("/stall.png"), context: context, completed: first.block)
        imageView.sd_setHighlightedImage(
            with: env.server.url("/stall.png?h"), context: context, completed: highlighted.block)
        let running = imageView.sd_imageLoadOperation(forKey: "UIImageView") as? SDWebImageCombinedOperation
        let highlightedRunning =
            imageView.sd_imageLoadOperation(forKey: UIImageView.sd_highlightedImageOperationKey)
            as? SDWebImageCombinedOperation
        XCTAssertNotNil(running)
        XCTAssertNotNil(highlightedRunning)

        let (url, image) = memoryURL("second")
        let second = Completions()
        imageView.sd_setImage(with: url, context: context, completed: second.block)
        XCTAssertTrue(waitUntil { second.count == 1 })
        XCTAssertEqual(running?.isCancelled, true)
        XCTAssertEqual(highlightedRunning?.isCancelled, false, "another key is not cancelled")
        XCTAssertTrue(imageView.image === image)
        drainMainQueue()
        XCTAssertEqual(first.count, 0, "the cancelled load's completion is never called")
        highlightedRunning?.cancel()
    }

    /// Parity: VIEW-02 — the view holds its operations weakly: once the manager lets a finished load go, the
    /// view's entry reads nil.
    @MainActor
    func test_VIEW02_operationsAreHeldWeakly() {
        let imageView = UIImageView()
        let done = Completions()
        let url = env.serveOrFail("rgba.png")
        imageView.sd_setImage(with: url, context: context, completed: done.block)
        XCTAssertNotNil(imageView.sd_imageLoadOperation(forKey: "UIImageView"), "held while the manager runs it")
        XCTAssertTrue(waitUntil { done.count == 1 && !self.env.manager.isRunning })
        drainMainQueue()
        XCTAssertNil(imageView.sd_imageLoadOperation(forKey: "UIImageView"), "released with the finished load")
    }

    // MARK: VIEW-03

    /// Parity: VIEW-03 — `sd_imageURL` is the last URL; `sd_imageProgress` counts bytes of a download, and ends
    /// at 1/1 for a cache hit that reported no progress.
    @MainActor
    func test_VIEW03_imageURLAndProgress() {
        let imageView = UIImageView()
        let size = Int64(TestFixtures.dataOrFail("gradient.png").count)
        let url = env.serveOrFail("gradient.png")
        let done = Completions()
        imageView.sd_setImage(with: url, context: context, completed: done.block)
        XCTAssertEqual(imageView.sd_imageURL, url)
        XCTAssertTrue(waitUntil { done.count == 1 })
        XCTAssertNotNil(done.last?.image)
        XCTAssertEqual(imageView.sd_imageProgress.totalUnitCount, size)
        XCTAssertEqual(imageView.sd_imageProgress.completedUnitCount, size)

        let (memory, _) = memoryURL("progress")
        let hit = Completions()
        imageView.sd_setImage(with: memory, context: context, completed: hit.block)
        XCTAssertTrue(waitUntil { hit.count == 1 })
        XCTAssertEqual(imageView.sd_imageURL, memory)
        XCTAssertEqual(imageView.sd_imageProgress.totalUnitCount, SDWebImageProgressUnitCountUnknown)
        XCTAssertEqual(imageView.sd_imageProgress.completedUnitCount, SDWebImageProgressUnitCountUnknown)

        imageView.sd_setImage(with: nil, context: context)
        XCTAssertNil(imageView.sd_imageURL)
    }

    // MARK: VIEW-04

    /// Parity: VIEW-04 — the placeholder is shown at once; with DelayPlaceholder it is not, and appears only when
    /// the load has failed.
    @MainActor
    func test_VIEW04_placeholderAtOnceUnlessDelayPlaceholder() {
        env.server.route("/stall.png", .stall)
        env.server.route("/404.png", .status(404))
        let placeholder = makeImage(9)
        let imageView = UIImageView()
        imageView.sd_setImage(with: env.server.url("/stall.png"), placeholderImage: placeholder, context: context)
        XCTAssertTrue(imageView.image === placeholder, "set before sd_setImage returns")
        imageView.sd_cancelCurrentImageLoad()

        let delayed = UIImageView()
        let done = Completions()
        delayed.sd_setImage(
            with: env.server.url("/404.png"), placeholderImage: placeholder, options: .delayPlaceholder,
            context: context, completed: done.block)
        XCTAssertNil(delayed.image, "DelayPlaceholder: nothing yet")
        XCTAssertTrue(waitUntil { done.count == 1 })
        XCTAssertNotNil(done.last?.error)
        XCTAssertTrue(delayed.image === placeholder, "the placeholder once the load failed")
    }

    // MARK: VIEW-05

    /// Parity: VIEW-05 — a nil URL completes with "Trying to load a nil url" and stops the indicator.
    @MainActor
    func test_VIEW05_nilURLCompletesWithErrorAndStopsIndicator() {
        let imageView = UIImageView()
        let indicator = SDWebImageActivityIndicator()
        imageView.sd_imageIndicator = indicator
        let placeholder = makeImage(3)
        let done = Completions()
        imageView.sd_setImage(with: nil, placeholderImage: placeholder, context: context, completed: done.block)
        XCTAssertTrue(waitUntil { done.count == 1 })
        let error = done.last?.error as NSError?
        XCTAssertEqual(error?.domain, SDWebImageErrorDomain)
        XCTAssertEqual(error?.code, -1)
        XCTAssertEqual(error?.localizedDescription, "Trying to load a nil url")
        XCTAssertNil(done.last?.image)
        XCTAssertEqual(indicator.calls, [.stop])
        XCTAssertTrue(imageView.image === placeholder)
        XCTAssertFalse(env.manager.isRunning)
    }

    // MARK: VIEW-06

    /// Parity: VIEW-06 — AvoidAutoSetImage: the loaded image is not set (the placeholder stays, no layout), the
    /// completion gets it.
    @MainActor
    func test_VIEW06_avoidAutoSetImageLeavesViewAlone() {
        let (url, image) = memoryURL("avoid")
        let placeholder = makeImage(1)
        let imageView = UIImageView()
        let done = Completions()
        imageView.sd_setImage(
            with: url, placeholderImage: placeholder, options: .avoidAutoSetImage, context: context,
            completed: done.block)
        XCTAssertTrue(waitUntil { done.count == 1 })
        XCTAssertTrue(done.last?.image === image)
        XCTAssertEqual(done.last?.cacheType, .memory)
        XCTAssertTrue(imageView.image === placeholder)
        XCTAssertEqual(imageView.setNeedsLayoutCount, 0)
    }

    /// Parity: VIEW-06 — no image and no DelayPlaceholder: nothing is set (the placeholder stays), the completion
    /// gets the error; a loaded image is set and the view laid out.
    @MainActor
    func test_VIEW06_failureWithoutDelayPlaceholderSetsNothing() {
        env.server.route("/404.png", .status(404))
        let placeholder = makeImage(2)
        let imageView = UIImageView()
        let failed = Completions()
        imageView.sd_setImage(
            with: env.server.url("/404.png"), placeholderImage: placeholder, context: context,
            completed: failed.block)
        XCTAssertTrue(waitUntil { failed.count == 1 })
        XCTAssertNotNil(failed.last?.error)
        XCTAssertTrue(imageView.image === placeholder)
        XCTAssertEqual(imageView.setNeedsLayoutCount, 0)

        let (url, image) = memoryURL("set")
        let loaded = Completions()
        imageView.sd_setImage(with: url, context: context, completed: loaded.block)
        XCTAssertTrue(waitUntil { loaded.count == 1 })
        XCTAssertTrue(imageView.image === image)
        XCTAssertEqual(imageView.setNeedsLayoutCount, 1)
    }

    /// Parity: VIEW-06 — a `setImageBlock` replaces the view's setter, for the placeholder and the image alike;
    /// without one an image view sets `image`, a button its normal-state image.
    @MainActor
    func test_VIEW06_setImageBlockReplacesDefaultSetter() {
        let (url, image) = memoryURL("block")
        let placeholder = makeImage(4)
        let imageView = UIImageView()
        let received = Recorder<UIImage?>()
        let done = Completions()
        imageView.sd_internalSetImage(
            with: url, placeholderImage: placeholder, options: [], operationKey: nil,
            setImageBlock: { image, _ in received.append(image) }, progress: nil,
            completed: done.block, context: context)
        XCTAssertTrue(waitUntil { done.count == 1 })
        XCTAssertEqual(received.values.count, 2)
        // No XCTUnwrap: a @MainActor test cannot throw (Linux XCTest's test list casts it to a non-throwing one).
        guard let first = received.values.first, let last = received.values.last else {
            return XCTFail("no image was set")
        }
        XCTAssertTrue(first === placeholder)
        XCTAssertTrue(last === image)
        XCTAssertNil(imageView.image, "the block replaced the default setter")

        let button = UIButton()
        let buttonDone = Completions()
        button.sd_internalSetImage(
            with: url, placeholderImage: nil, options: [], operationKey: nil, setImageBlock: nil,
            progress: nil, completed: buttonDone.block, context: context)
        XCTAssertTrue(waitUntil { buttonDone.count == 1 })
        XCTAssertTrue(button.image(for: .normal) === image, "a button's default setter is the normal-state image")
    }

    /// Parity: VIEW-06 — partial images of a progressive download: the view shows them but calls its completion
    /// only when finished; with AvoidAutoSetImage it shows none and calls the completion for each.
    @MainActor
    func test_VIEW06_progressiveCompletionOnlyWhenFinishedUnlessAvoidAutoSetImage() {
        let data = TestFixtures.dataOrFail("gradient.png")
        env.server.route(
            "/progressive.png",
            SDPortTestRoute.data(data, contentType: "image/png")
                .trickle(chunkSize: 16_384, interval: 0.01))
        let url = env.server.url("/progressive.png")
        let imageView = UIImageView()
        let shown = Completions()
        imageView.sd_setImage(with: url, options: .progressiveDownload, context: context, completed: shown.block)
        XCTAssertTrue(waitUntil { shown.count == 1 })
        drainMainQueue()
        XCTAssertEqual(shown.count, 1, "called once, when finished")
        XCTAssertEqual(imageView.image?.pixelHeight, 192)
        XCTAssertGreaterThan(imageView.setNeedsLayoutCount, 1, "partial images were shown on the way")

        let avoiding = UIImageView()
        let calls = Completions()
        let other = env.server.url("/progressive.png?again")
        avoiding.sd_setImage(
            with: other, options: [.progressiveDownload, .avoidAutoSetImage], context: context,
            completed: calls.block)
        XCTAssertTrue(waitUntil { !self.env.manager.isRunning && calls.count > 0 })
        drainMainQueue()
        XCTAssertGreaterThan(calls.count, 1, "partial images reach the completion with AvoidAutoSetImage")
        XCTAssertNil(avoiding.image)
        XCTAssertEqual(avoiding.setNeedsLayoutCount, 0)
    }

    // MARK: VIEW-07

    /// Parity: VIEW-07 — the indicator starts before the load, shows progress clamped to 0...1, and stops when
    /// the load has finished.
    @MainActor
    func test_VIEW07_indicatorStartsShowsProgressAndStops() {
        let url = env.serveOrFail("gradient.png")
        let imageView = UIImageView()
        let indicator = SDWebImageActivityIndicator()
        imageView.sd_imageIndicator = indicator
        XCTAssertTrue(indicator.indicatorView.superview === imageView, "the indicator's view is added to the view")
        let done = Completions()
        imageView.sd_setImage(with: url, context: context, completed: done.block)
        XCTAssertEqual(indicator.calls, [.start], "started before the load")
        XCTAssertTrue(indicator.isAnimating)
        XCTAssertTrue(waitUntil { done.count == 1 })
        drainMainQueue()
        XCTAssertNotNil(done.last?.image)
        XCTAssertEqual(indicator.calls.first, .start)
        XCTAssertEqual(indicator.stopCount, 1)
        XCTAssertFalse(indicator.isAnimating)
        XCTAssertFalse(indicator.progressValues.isEmpty)
        XCTAssertTrue(indicator.progressValues.allSatisfy { (0...1).contains($0) }, "\(indicator.progressValues)")
        XCTAssertEqual(indicator.progressValues.max(), 1)

        imageView.sd_imageIndicator = nil
        XCTAssertNil(indicator.indicatorView.superview)
    }

    /// Parity: VIEW-07 — a server that sends no Content-Length (a close-delimited body, and a chunked one): the
    /// downloader reports an unknown expected size, and the indicator still only ever shows 0…1.
    @MainActor
    func test_VIEW07_progressWithoutContentLengthStaysWithinZeroAndOne() {
        let data = TestFixtures.dataOrFail("gradient.png")
        env.server.route(
            "/no-length.png",
            SDPortTestRoute.data(data, contentType: "image/png")
                .withoutContentLength().trickle(chunkSize: 16_384, interval: 0.005))
        env.server.route(
            "/chunked.png",
            SDPortTestRoute.data(data, contentType: "image/png")
                .chunked().trickle(chunkSize: 16_384, interval: 0.005))
        for path in ["/no-length.png", "/chunked.png"] {
            let imageView = UIImageView()
            let indicator = SDWebImageActivityIndicator()
            imageView.sd_imageIndicator = indicator
            let expectedSizes = Recorder<Int>()
            let done = Completions()
            imageView.sd_setImage(
                with: env.server.url(path), context: context,
                progress: { _, expected, _ in expectedSizes.append(expected) }, completed: done.block)
            XCTAssertTrue(waitUntil { done.count == 1 }, path)
            drainMainQueue()
            XCTAssertEqual(done.last?.image?.pixelWidth, 256, path)
            XCTAssertFalse(expectedSizes.values.isEmpty, path)
            XCTAssertTrue(
                expectedSizes.values.allSatisfy { $0 <= 0 }, "\(path): the size is unknown: \(expectedSizes.values)")
            XCTAssertFalse(indicator.progressValues.isEmpty, path)
            XCTAssertTrue(
                indicator.progressValues.allSatisfy { (0...1).contains($0) }, "\(path): \(indicator.progressValues)")
            XCTAssertEqual(indicator.stopCount, 1, path)
        }
    }

    /// Parity: VIEW-07 — a Content-Length smaller than the body the client receives (a gzip body: the header counts
    /// 627 compressed bytes, libcurl hands over 147,726 inflated ones): received exceeds expected, and the indicator
    /// still only ever shows 0…1. A plain body cut to a too-small Content-Length never goes past it.
    @MainActor
    func test_VIEW07_progressWithTooSmallContentLengthStaysWithinZeroAndOne() {
        let gzipped = TestFixtures.dataOrFail("quadrants-stored.png.gz")
        env.server.route(
            "/gzip.png",
            SDPortTestRoute.data(gzipped, contentType: "image/png")
                .headers(["Content-Encoding": "gzip"]))
        let imageView = UIImageView()
        let indicator = SDWebImageActivityIndicator()
        imageView.sd_imageIndicator = indicator
        let reports = Recorder<(received: Int, expected: Int)>()
        let done = Completions()
        imageView.sd_setImage(
            with: env.server.url("/gzip.png"), context: context,
            progress: { received, expected, _ in reports.append((received, expected)) },
            completed: done.block)
        XCTAssertTrue(waitUntil { done.count == 1 })
        drainMainQueue()
        XCTAssertEqual(done.last?.image?.pixelWidth, 256, "the inflated PNG decodes")
        XCTAssertTrue(
            reports.values.contains { $0.expected == gzipped.count && $0.received > $0.expected },
            "received went past the declared size: \(reports.values.map { "\($0.received)/\($0.expected)" })")
        XCTAssertTrue(indicator.progressValues.allSatisfy { (0...1).contains($0) }, "\(indicator.progressValues)")
        XCTAssertEqual(indicator.progressValues.max(), 1)

        let data = TestFixtures.dataOrFail("gradient.png")
        env.server.route(
            "/short-length.png",
            SDPortTestRoute.data(data, contentType: "image/png")
                .headers(["Content-Length": "1000", "Connection": "close"]))
        let short = UIImageView()
        let shortIndicator = SDWebImageActivityIndicator()
        short.sd_imageIndicator = shortIndicator
        let shortDone = Completions()
        short.sd_setImage(with: env.server.url("/short-length.png"), context: context, completed: shortDone.block)
        XCTAssertTrue(waitUntil { shortDone.count == 1 })
        drainMainQueue()
        XCTAssertTrue(
            shortIndicator.progressValues.allSatisfy { (0...1).contains($0) }, "\(shortIndicator.progressValues)")
        XCTAssertEqual(shortIndicator.stopCount, 1)
    }

    // MARK: VIEW-10

    /// Parity: VIEW-10 — the 4.x activity indicator: off by default; once switched on, each load with a URL adds an
    /// indicator of the view's style as a subview and starts it, and the load's answer takes it away.
    @MainActor
    func test_VIEW10_activityIndicatorShownWhileLoadingAndRemovedWhenAnswered() {
        let url = env.serveOrFail("gradient.png")
        let plain = UIImageView()
        XCTAssertFalse(plain.sd_showActivityIndicatorView)
        XCTAssertEqual(plain.sd_getIndicatorStyle(), .whiteLarge, "no style set reads as 0, as the original's")
        let plainDone = Completions()
        plain.sd_setImage(with: url, context: context, completed: plainDone.block)
        XCTAssertNil(plain.sd_activityIndicator, "off by default")
        XCTAssertTrue(waitUntil { plainDone.count == 1 })

        let imageView = UIImageView()
        imageView.sd_setShowActivityIndicatorView(true)
        imageView.sd_setIndicatorStyle(.gray)
        XCTAssertTrue(imageView.sd_showActivityIndicatorView)
        let done = Completions()
        imageView.sd_setImage(with: env.server.url("/gradient.png?again"), context: context, completed: done.block)
        guard let indicator = imageView.sd_activityIndicator else {
            return XCTFail("the load added an indicator")
        }
        XCTAssertEqual(indicator.style, .gray)
        XCTAssertTrue(indicator.isAnimating)
        XCTAssertTrue(indicator.indicatorView.superview === imageView)
        XCTAssertTrue(waitUntil { done.count == 1 })
        XCTAssertNotNil(done.last?.image)
        XCTAssertNil(imageView.sd_activityIndicator, "the answer removed it")
        XCTAssertNil(indicator.indicatorView.superview)
        XCTAssertEqual(indicator.calls, [.start, .stop], "4.x's indicator gets no progress")
        XCTAssertFalse(imageView.subviews.contains { $0 === indicator.indicatorView })
    }

    /// Parity: VIEW-10 — `sd_addActivityIndicator` reuses the indicator already there; a nil URL removes it.
    @MainActor
    func test_VIEW10_addReusesAndNilURLRemovesTheActivityIndicator() {
        let imageView = UIImageView()
        imageView.sd_setShowActivityIndicatorView(true)
        imageView.sd_addActivityIndicator()
        let first = imageView.sd_activityIndicator
        imageView.sd_addActivityIndicator()
        XCTAssertTrue(imageView.sd_activityIndicator === first, "one indicator per view")
        XCTAssertEqual(imageView.subviews.count, 1)
        let done = Completions()
        imageView.sd_setImage(with: nil, context: context, completed: done.block)
        XCTAssertTrue(waitUntil { done.count == 1 })
        XCTAssertNil(imageView.sd_activityIndicator)
        XCTAssertEqual(first?.calls, [.start, .start, .stop])
        XCTAssertTrue(imageView.subviews.isEmpty)
        imageView.sd_removeActivityIndicator()  // nothing there: nothing happens
    }

    /// Parity: VIEW-10 — `SDWebImageInternalSetImageGroupKey`: the view enters the group before the placeholder and
    /// before the downloaded image; with the group's switch on (4.4.8's associated flag), the completion waits until
    /// the set-image block has left it for both.
    @MainActor
    func test_VIEW10_setImageGroupHoldsTheCompletionUntilLeft() {
        let url = env.serveOrFail("gradient.png")
        let holder = SDWebImageInternalSetImageGroup(notifiesCompletion: true)
        let sets = Recorder<UIImage?>()
        let imageView = UIImageView()
        let placeholder = makeImage(7)
        let done = Completions()
        var viewContext = context
        viewContext[SDWebImageInternalSetImageGroupKey] = holder
        imageView.sd_internalSetImage(
            with: url, placeholderImage: placeholder, options: [], operationKey: nil,
            setImageBlock: { image, _ in sets.append(image) }, progress: nil,
            completed: done.block, context: viewContext)
        guard let first = sets.values.first else { return XCTFail("the placeholder was not set") }
        XCTAssertTrue(first === placeholder)
        // Each leave below matches an enter the view made; without the second set there is no second enter, and a
        // leave too many would crash the test process rather than fail this test.
        guard waitUntil({ sets.count == 2 }) else { return XCTFail("the downloaded image was not set") }
        XCTAssertEqual(sets.values.last??.pixelWidth, 256)
        drainMainQueue()
        XCTAssertEqual(done.count, 0, "the group has not been left yet")
        XCTAssertEqual(imageView.setNeedsLayoutCount, 0, "layout waits with the completion")
        holder.group.leave()
        drainMainQueue()
        XCTAssertEqual(done.count, 0, "one enter is still open")
        holder.group.leave()
        XCTAssertTrue(waitUntil { done.count == 1 })
        XCTAssertEqual(done.last?.image?.pixelWidth, 256)
        XCTAssertEqual(imageView.setNeedsLayoutCount, 1)
    }

    /// Parity: VIEW-10 — a bare `DispatchGroup` in the context is entered for each image too, but, its switch being
    /// off (as a group with no associated flag in 4.4.8), the completion comes right after the image is set.
    @MainActor
    func test_VIEW10_bareDispatchGroupIsEnteredButDoesNotHoldTheCompletion() {
        let url = env.serveOrFail("gradient.png")
        let group = DispatchGroup()
        let imageView = UIImageView()
        let done = Completions()
        var viewContext = context
        viewContext[SDWebImageInternalSetImageGroupKey] = group
        imageView.sd_setImage(with: url, placeholderImage: makeImage(2), context: viewContext, completed: done.block)
        XCTAssertTrue(waitUntil { done.count == 1 })
        XCTAssertEqual(done.last?.image?.pixelWidth, 256)
        // A leave without its enter would crash the test process: each leave waits for the check that it is owed.
        guard group.wait(timeout: .now()) == .timedOut else {
            return XCTFail("entered, never left by the default setter")
        }
        group.leave()
        guard group.wait(timeout: .now()) == .timedOut else { return XCTFail("entered twice: placeholder and image") }
        group.leave()
        XCTAssertEqual(group.wait(timeout: .now()), .success)
    }

    /// Parity: V5-01 — the context's `setImageOperationKey` is the key the view files its load under (5.x), in place
    /// of the class name; an explicit operation key (a button's per-state key) still wins.
    @MainActor
    func test_V501_setImageOperationKeyNamesTheViewsLoad() {
        env.server.route("/stall.png", .stall)
        let imageView = UIImageView()
        var keyed = context
        keyed[SDWebImageContextOption.setImageOperationKey.rawValue] = "custom-key"
        imageView.sd_setImage(with: env.server.url("/stall.png"), context: keyed)
        let running = imageView.sd_imageLoadOperation(forKey: "custom-key") as? SDWebImageCombinedOperation
        XCTAssertNotNil(running)
        XCTAssertNil(imageView.sd_imageLoadOperation(forKey: "UIImageView"))
        imageView.sd_cancelCurrentImageLoad()
        XCTAssertEqual(running?.isCancelled, false, "the class-name key holds nothing to cancel")

        let (url, image) = memoryURL("keyed")
        let done = Completions()
        imageView.sd_setImage(with: url, context: keyed, completed: done.block)
        XCTAssertTrue(waitUntil { done.count == 1 })
        XCTAssertEqual(running?.isCancelled, true, "a new load under the same context key cancels the old one")
        XCTAssertTrue(imageView.image === image)

        let button = UIButton()
        button.sd_setImage(with: env.server.url("/stall.png?b"), for: .normal, context: keyed)
        XCTAssertNotNil(button.sd_imageLoadOperation(forKey: "UIButtonImageOperation0"))
        XCTAssertNil(button.sd_imageLoadOperation(forKey: "custom-key"))
        button.sd_cancelImageLoadOperation(withKey: "UIButtonImageOperation0")
    }

    // MARK: VIEW-08

    /// Parity: VIEW-08 — a transition is applied to a finished download: `prepares`, then the image is set with
    /// `animations`, then `completion(true)`; a memory hit gets none unless ForceTransition.
    @MainActor
    func test_VIEW08_transitionOnlyForDownloadsUnlessForced() {
        let steps = Recorder<String>()
        let transition = SDWebImageTransition.fade
        transition.prepares = { _, image, _, cacheType, _ in
            steps.append("prepares \(cacheType.rawValue) \(image != nil)")
        }
        transition.animations = { view, _ in
            steps.append("animations, image set: \((view as? UIImageView)?.image != nil)")
        }
        transition.completion = { finished in steps.append("completion \(finished)") }
        XCTAssertEqual(transition.duration, 0.5)
        XCTAssertEqual(transition.animationOptions, [.transitionCrossDissolve, .allowUserInteraction])

        let imageView = UIImageView()
        imageView.sd_imageTransition = transition
        let url = env.serveOrFail("rgba.png")
        let downloaded = Completions()
        imageView.sd_setImage(with: url, context: context, completed: downloaded.block)
        XCTAssertTrue(waitUntil { steps.count == 3 })
        XCTAssertEqual(steps.values, ["prepares 0 true", "animations, image set: true", "completion true"])
        XCTAssertNotNil(imageView.image)

        let (memory, _) = memoryURL("transition")
        let hit = Completions()
        imageView.sd_setImage(with: memory, context: context, completed: hit.block)
        XCTAssertTrue(waitUntil { hit.count == 1 })
        drainMainQueue()
        drainMainQueue()
        XCTAssertEqual(steps.count, 3, "no transition for a memory hit")

        let forced = Completions()
        imageView.sd_setImage(with: memory, options: .forceTransition, context: context, completed: forced.block)
        XCTAssertTrue(waitUntil { steps.count == 6 })
        XCTAssertEqual(
            Array(steps.values.suffix(3)), ["prepares 2 true", "animations, image set: true", "completion true"])
    }

    // MARK: VIEW-09

    /// Parity: VIEW-09 — `sd_cancelCurrentImageLoad` cancels the running load; its completion is never called.
    @MainActor
    func test_VIEW09_cancelCurrentImageLoad() {
        env.server.route("/stall.png", .stall)
        let imageView = UIImageView()
        let done = Completions()
        imageView.sd_setImage(with: env.server.url("/stall.png"), context: context, completed: done.block)
        let operation = imageView.sd_imageLoadOperation(forKey: "UIImageView") as? SDWebImageCombinedOperation
        XCTAssertTrue(waitUntil { self.env.server.hits("/stall.png") == 1 })
        imageView.sd_cancelCurrentImageLoad()
        XCTAssertEqual(operation?.isCancelled, true)
        XCTAssertNil(imageView.sd_imageLoadOperation(forKey: "UIImageView"))
        XCTAssertTrue(waitUntil { self.env.downloader.runningURLCount == 0 })
        drainMainQueue()
        XCTAssertEqual(done.count, 0)
    }

    /// Parity: VIEW-09 — a button loads per state: each state its own image and URL, the current state's URL
    /// falls back to normal's, and cancelling one state leaves the others.
    @MainActor
    func test_VIEW09_buttonLoadsPerState() {
        env.server.route("/stall.png", .stall)
        let button = UIButton()
        let (normal, normalImage) = memoryURL("normal", image: makeImage(10))
        let (disabled, disabledImage) = memoryURL("disabled", image: makeImage(20))
        button.sd_setImage(with: normal, for: .normal, context: context)
        button.sd_setImage(with: disabled, for: .disabled, context: context)
        XCTAssertTrue(waitUntil { button.image(for: .disabled) === disabledImage })
        XCTAssertTrue(button.image(for: .normal) === normalImage)
        XCTAssertEqual(button.sd_imageURL(for: .normal), normal)
        XCTAssertEqual(button.sd_imageURL(for: .disabled), disabled)
        XCTAssertEqual(button.sd_currentImageURL, normal)
        button.isEnabled = false
        XCTAssertEqual(button.sd_currentImageURL, disabled)
        XCTAssertTrue(button.currentImage === disabledImage)
        button.isEnabled = true
        button.isHighlighted = true
        XCTAssertEqual(button.sd_currentImageURL, normal, "no highlighted URL: the normal one")
        XCTAssertTrue(button.currentImage === normalImage)

        button.sd_setImage(with: env.server.url("/stall.png"), for: .selected, context: context)
        button.sd_setBackgroundImage(with: env.server.url("/stall.png?bg"), for: .selected, context: context)
        let selectedOperation =
            button.sd_imageLoadOperation(forKey: UIButton.sd_imageOperationKey(for: .selected))
            as? SDWebImageCombinedOperation
        let backgroundOperation =
            button.sd_imageLoadOperation(forKey: UIButton.sd_backgroundImageOperationKey(for: .selected))
            as? SDWebImageCombinedOperation
        button.sd_cancelImageLoad(for: .selected)
        XCTAssertEqual(selectedOperation?.isCancelled, true)
        XCTAssertEqual(backgroundOperation?.isCancelled, false)
        button.sd_cancelBackgroundImageLoad(for: .selected)
        XCTAssertEqual(backgroundOperation?.isCancelled, true)
        XCTAssertEqual(button.sd_backgroundImageURL(for: .selected), env.server.url("/stall.png?bg"))
        button.sd_setImage(with: nil, for: .disabled, context: context)
        XCTAssertNil(button.sd_imageURL(for: .disabled), "a nil URL forgets the state's URL")
    }

    /// Parity: VIEW-09 — an image view's highlighted load sets `highlightedImage` and leaves `image` alone.
    @MainActor
    func test_VIEW09_highlightedLoadSetsHighlightedImage() {
        let (url, image) = memoryURL("hl")
        let plain = makeImage(50)
        let imageView = UIImageView(image: plain)
        let done = Completions()
        imageView.sd_setHighlightedImage(with: url, context: context, completed: done.block)
        XCTAssertTrue(waitUntil { done.count == 1 })
        XCTAssertTrue(imageView.highlightedImage === image)
        XCTAssertTrue(imageView.image === plain)
        imageView.isHighlighted = true
        XCTAssertTrue(imageView.displayedImage === image)
    }

    /// Parity: VIEW-09 — animation images arrive at their own index.
    @MainActor
    func test_VIEW09_animationImagesKeepTheirOrder() {
        let frames = (0..<3).map { memoryURL("frame\($0)", image: makeImage(UInt8(30 + $0))) }
        let imageView = UIImageView()
        imageView.sd_setAnimationImages(with: frames.map(\.0), context: context)
        XCTAssertTrue(waitUntil { imageView.animationImages?.count == 3 })
        XCTAssertTrue(zip(imageView.animationImages ?? [], frames.map(\.1)).allSatisfy { $0 === $1 })
        XCTAssertTrue(imageView.isAnimating)
    }

    // MARK: async/await face

    /// Parity: VIEW-09 — `try await sd_setImage` returns the result after the image is set.
    @MainActor
    func test_VIEW09_asyncSetImageReturnsResult() async throws {
        let url = try env.serveFixture("rgba.png")
        let imageView = UIImageView()
        let result = try await imageView.sd_setImage(with: url, context: context)
        XCTAssertEqual(result.cacheType, SDImageCacheType.none)
        XCTAssertTrue(imageView.image === result.image)
        XCTAssertEqual(result.url, url)
        XCTAssertNotNil(result.data)
    }

    /// Parity: VIEW-02 — an awaited load replaced by a newer load on the same view throws CancellationError
    /// (resumed once); cancelling the task of an awaited load cancels it too.
    @MainActor
    func test_VIEW02_asyncLoadReplacedOrCancelledThrowsCancellation() async throws {
        env.server.route("/stall.png", .stall)
        let imageView = UIImageView()
        let context = self.context
        let stalled = env.server.url("/stall.png")
        let first = Task { @MainActor in try await imageView.sd_setImage(with: stalled, context: context) }
        await Task.yield()
        let server = env.server
        _ = await Task.detached { waitUntil { server.hits("/stall.png") == 1 } }.value
        let (url, image) = memoryURL("replacing")
        let second = try await imageView.sd_setImage(with: url, context: context)
        XCTAssertTrue(second.image === image)
        do {
            _ = try await first.value
            XCTFail("the replaced load must throw")
        } catch {
            XCTAssertTrue(error is CancellationError, "got \(error)")
        }

        let thirdURL = env.server.url("/stall.png?third")
        let third = Task { @MainActor in
            try await imageView.sd_setImage(with: thirdURL, options: .delayPlaceholder, context: context)
        }
        await Task.yield()
        third.cancel()
        do {
            _ = try await third.value
            XCTFail("the cancelled task must throw")
        } catch {
            XCTAssertTrue(error is CancellationError, "got \(error)")
        }
        XCTAssertTrue(imageView.image === image, "DelayPlaceholder and a cancelled load: the image stays")
    }
}
