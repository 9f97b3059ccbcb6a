import Foundation
import SDPort
import SDPortTestServer

/// The runs `sdport museum N --diagram` draws (MUS-01, 02, 03, 09: four concurrency exhibits). Each runs in-process
/// on the port this binary was built from, over the loopback server with a cache in a temporary directory, and
/// returns the trace events of its URLs, the caller's notes and the outcome. Which side it shows depends on the
/// binary: the checkout's `sdport` or the patched copy's.
enum MuseumDiagramRun {
    static let numbers: Set<Int> = [1, 2, 3, 9]

    @MainActor
    static func run(_ exhibit: MuseumExhibit, side: String) async throws -> MuseumDiagram {
        let loopback = try FAQLoopback()
        defer { loopback.close() }
        let notes = LockedValue<[(date: Date, text: String)]>([])
        let note: @Sendable (String) -> Void = { text in notes.withValue { $0.append((Date(), text)) } }
        var keys: [URL] = []
        var outcome: [String] = []
        let context: SDWebImageViewContext = [SDWebImageExternalCustomManagerKey: loopback.manager]
        switch exhibit.number {
        case 1:
            let urlT = loopback.server.url("/T.png")
            let urlF = loopback.server.url("/F.png")
            loopback.server.route("/F.png", .data(SampleImage.png, contentType: "image/png"))
            loopback.cache.storeImage(
                toMemory: UIImage(
                    pixelWidth: 2, pixelHeight: 2, pixels: [UInt8](repeating: 80, count: 16), hasAlpha: false),
                forKey: loopback.manager.cacheKey(for: urlT))
            keys = [urlT, urlF]
            let logs = keys.map { DiagramEventLog(key: $0.absoluteString) }
            let view = UIImageView()
            let innerCalls = LockedValue(0)
            note("view.sd_setImage(T), T is in memory")
            view.sd_setImage(with: urlT, context: context) { _, _, _, _ in
                note("T's completion: view.sd_setImage(F)")
                view.sd_setImage(with: urlF, context: context) { _, _, _, _ in
                    innerCalls.withValue { $0 += 1 }
                    note("F's completion")
                }
            }
            note("the outer sd_setImage returned")
            await settle(loopback) { innerCalls.withValue { $0 } == 1 }
            outcome = [
                "F's completion calls: \(innerCalls.withValue { $0 }), server hits for /F.png: \(loopback.server.hits("/F.png"))"
            ]
            return MuseumDiagram(
                exhibit: exhibit, side: side, events: logs.flatMap(\.snapshot), notes: notes.withValue { $0 },
                outcome: outcome)
        case 2:
            let urlA = loopback.server.url("/A.png")
            loopback.cache.storeImage(
                toMemory: UIImage(
                    pixelWidth: 2, pixelHeight: 2, pixels: [UInt8](repeating: 80, count: 16), hasAlpha: false),
                forKey: loopback.manager.cacheKey(for: urlA))
            let log = DiagramEventLog(key: urlA.absoluteString)
            let view = UIImageView()
            let transition = SDWebImageTransition.fade
            transition.animations = { _, _ in note("transition: animations run") }
            view.sd_imageTransition = transition
            let imageX = UIImage(pixelWidth: 1, pixelHeight: 1, pixels: [9, 9, 9, 255], hasAlpha: false)
            note("view.sd_setImage(A, .forceTransition), A is in memory")
            view.sd_setImage(with: urlA, options: .forceTransition, context: context, progress: nil, completed: nil)
            note("view.sd_cancelCurrentImageLoad(), view.image = X")
            view.sd_cancelCurrentImageLoad()
            view.image = imageX
            await drainMain()
            await drainMain()
            outcome = [
                "the view shows \(view.image === imageX ? "X (the new image)" : "A (the cancelled load's image)")"
            ]
            return MuseumDiagram(
                exhibit: exhibit, side: side, events: log.snapshot, notes: notes.withValue { $0 }, outcome: outcome)
        case 3:
            loopback.server.route("/stall.png", .stall)
            let url = loopback.server.url("/stall.png")
            let log = DiagramEventLog(key: url.absoluteString)
            let calls = LockedValue<[String]>([])
            note("manager.loadImage(url), the server stalls")
            loopback.manager.loadImage(with: url) { _, _, error, _, finished, _ in
                calls.withValue {
                    $0.append("error \((error as NSError?)?.code.description ?? "nil"), finished \(finished)")
                }
                note("the completion runs")
            }
            try await log.wait(for: "the operation's start") { events in events.contains { $0.mark == .operationStart }
            }
            note("downloader.cancelAllDownloads()")
            loopback.downloader.cancelAllDownloads()
            try await log.wait(for: "the operation's cancel") { events in
                events.contains { $0.mark == .operationCancel }
            }
            await settle(loopback) { !calls.withValue { $0 }.isEmpty }
            let recorded = calls.withValue { $0 }
            outcome = [
                "completion calls: \(recorded.count)"
                    + (recorded.isEmpty ? "" : " (\(recorded.joined(separator: "; ")))"),
                "manager.isRunning: \(loopback.manager.isRunning)",
            ]
            return MuseumDiagram(
                exhibit: exhibit, side: side, events: log.snapshot, notes: notes.withValue { $0 }, outcome: outcome)
        case 9:
            loopback.server.route("/a.png", .data(SampleImage.png, contentType: "image/png"))
            let url = loopback.server.url("/a.png")
            let log = DiagramEventLog(key: url.absoluteString)
            let delegate = MuseumCancellingDelegate { note("the delegate cancels every load, then says yes") }
            loopback.manager.delegate = delegate
            defer { loopback.manager.delegate = nil }
            note("manager.loadImage(url), nothing cached")
            let operation = loopback.manager.loadImage(with: url) { _, _, _, _, _, _ in note("the completion runs") }
            try await log.wait(for: "the download's start") { events in events.contains { $0.step == .downloadStart } }
            await settle(loopback) {
                loopback.downloader.runningOperation(for: url) == nil && loopback.server.hits("/a.png") > 0
            }
            outcome = [
                "load cancelled: \(operation.isCancelled), server hits: \(loopback.server.hits("/a.png")), "
                    + "download still listed: \(loopback.downloader.runningOperation(for: url) != nil)"
            ]
            _ = delegate
            return MuseumDiagram(
                exhibit: exhibit, side: side, events: log.snapshot, notes: notes.withValue { $0 }, outcome: outcome)
        default:
            throw SDPortFailure(
                .usage,
                "no diagram for \(exhibit.id); diagrams exist for exhibits "
                    + numbers.sorted().map(String.init).joined(separator: ", "))
        }
    }

    /// Lets queued work finish: waits (at most 2 s, checking every 2 ms) for `done`, then drains the io and main
    /// queues twice. A side where `done` never holds (the bug) ends at the deadline.
    @MainActor
    private static func settle(_ loopback: FAQLoopback, until done: @Sendable () -> Bool) async {
        let deadline = Date().addingTimeInterval(2)
        while !done() && Date() < deadline { try? await Task.sleep(nanoseconds: 2_000_000) }
        for _ in 0..<2 {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                loopback.cache.ioQueue.async { continuation.resume() }
            }
            await drainMain()
        }
    }

    private static func drainMain() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async { continuation.resume() }
        }
    }
}
