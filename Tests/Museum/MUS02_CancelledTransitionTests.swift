import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// MUS-02: a cancelled load's transition still sets its image a run-loop turn later. 4.4.8 decides on the
/// transition when the manager answers (`UIView+WebCache.m:166-170`) and sets the image inside the second
/// transition's animations (`UIView+WebCache.m:249-263`) with no check that the load is still the view's; a cancel
/// (`UIView+WebCache.m:208-210`) cannot reach it. The patch adds 5.9.0 / 5.9.4's latest-operation-key guard.
final class MUS02_CancelledTransitionTests: XCTestCase {
    private var env: ManagerTestEnvironment!

    override func setUpWithError() throws { env = try ManagerTestEnvironment(namespace: "mus02") }
    override func tearDown() {
        env.tearDown()
        env = nil
    }

    private func image(_ value: UInt8) -> UIImage {
        UIImage(pixelWidth: 2, pixelHeight: 2, pixels: [UInt8](repeating: value, count: 16), hasAlpha: false)
    }

    /// Image A in the memory cache under `name`'s URL.
    private func memoryURL(_ name: String, _ stored: UIImage) -> URL {
        let url = env.server.url("/\(name).png")
        env.cache.storeImage(toMemory: stored, forKey: env.manager.cacheKey(for: url))
        return url
    }

    /// A fade that counts its steps.
    @MainActor
    private func countingTransition(_ steps: Recorder<String>) -> SDWebImageTransition {
        let transition = SDWebImageTransition.fade
        transition.animations = { _, _ in steps.append("animations") }
        transition.completion = { _ in steps.append("completion") }
        return transition
    }

    /// Faithful side: load A with ForceTransition (a memory hit), cancel, set X, all in one main-queue turn. The
    /// transition's second hop, already queued, sets A anyway.
    func test_MUS02_cancelledTransitionStillSetsItsImage() throws {
        try MuseumSide.requireUnpatched("MUS-02")
        // XCTest runs each test on the main thread, and the closure runs at once, on it.
        nonisolated(unsafe) let test = self
        try MainActor.assumeIsolated {
            let imageA = test.image(10)
            let imageX = test.image(200)
            let urlA = test.memoryURL("A", imageA)
            let steps = Recorder<String>()
            let imageView = UIImageView()
            imageView.sd_imageTransition = test.countingTransition(steps)
            imageView.sd_internalSetImage(
                with: urlA, placeholderImage: nil, options: [.forceTransition], operationKey: nil,
                setImageBlock: nil, progress: nil, completed: nil,
                context: [SDWebImageExternalCustomManagerKey: test.env.manager])
            imageView.sd_cancelCurrentImageLoad()
            imageView.image = imageX
            drainMainQueue()
            XCTAssertTrue(imageView.image === imageA, "the cancelled load's transition replaced X with A (4.4.8's bug)")
            XCTAssertEqual(steps.values.filter { $0 == "animations" }.count, 1)
        }
    }

    /// Fixed side (5.9.0): the cancel clears the view's latest operation key and every transition step checks it
    /// when it runs, so X stays and no step of A's transition runs.
    func test_MUS02_fixed_cancelledTransitionLeavesTheNewImage() throws {
        try MuseumSide.requirePatched("MUS-02")
        // XCTest runs each test on the main thread, and the closure runs at once, on it.
        nonisolated(unsafe) let test = self
        try MainActor.assumeIsolated {
            let imageA = test.image(10)
            let imageX = test.image(200)
            let urlA = test.memoryURL("A", imageA)
            let steps = Recorder<String>()
            let imageView = UIImageView()
            imageView.sd_imageTransition = test.countingTransition(steps)
            imageView.sd_internalSetImage(
                with: urlA, placeholderImage: nil, options: [.forceTransition], operationKey: nil,
                setImageBlock: nil, progress: nil, completed: nil,
                context: [SDWebImageExternalCustomManagerKey: test.env.manager])
            imageView.sd_cancelCurrentImageLoad()
            imageView.image = imageX
            drainMainQueue()
            drainMainQueue()
            XCTAssertTrue(imageView.image === imageX, "the cancelled transition leaves X alone")
            XCTAssertEqual(steps.values, [], "neither animations nor completion ran")
        }
    }

    /// Fixed side (5.9.4): a load under another operation key, started before the transition's hop runs, makes
    /// A's transition stand down.
    func test_MUS02_fixed_loadUnderAnotherKeyWinsOverThePendingTransition() throws {
        try MuseumSide.requirePatched("MUS-02")
        // XCTest runs each test on the main thread, and the closure runs at once, on it.
        nonisolated(unsafe) let test = self
        try MainActor.assumeIsolated {
            let imageA = test.image(10)
            let imageB = test.image(120)
            let urlA = test.memoryURL("A", imageA)
            let urlB = test.memoryURL("B", imageB)
            let steps = Recorder<String>()
            let imageView = UIImageView()
            imageView.sd_imageTransition = test.countingTransition(steps)
            let context: SDWebImageViewContext = [SDWebImageExternalCustomManagerKey: test.env.manager]
            imageView.sd_internalSetImage(
                with: urlA, placeholderImage: nil, options: [.forceTransition], operationKey: nil,
                setImageBlock: nil, progress: nil, completed: nil, context: context)
            imageView.sd_internalSetImage(
                with: urlB, placeholderImage: nil, options: [], operationKey: "other",
                setImageBlock: nil, progress: nil, completed: nil, context: context)
            XCTAssertTrue(imageView.image === imageB, "B, a memory hit without a transition, is set at once")
            drainMainQueue()
            drainMainQueue()
            XCTAssertTrue(imageView.image === imageB, "A's transition did not overwrite B")
            XCTAssertEqual(steps.values, [])
        }
    }
}
