import Foundation
import SDPort
import SDPortTestServer

/// The loads `sdport diagram` draws as sequence diagrams: the six of the flow, and a cold load through a manager
/// with a `cacheSerializer`, the one that uses the global queue. Each runs for real, through an image view
/// (`sd_setImage`), over the loopback server, with a cache in a temporary directory (`FAQLoopback`), and
/// returns the trace events (marks included) of its URL.
enum DiagramScenario: String, CaseIterable, Sendable {
    case coldLoad = "cold-load"
    case memoryHit = "memory-hit"
    case diskHit = "disk-hit"
    case notFound = "not-found"
    case coalesced = "coalesced"
    case cancelled = "cancelled"
    case cacheSerializer = "cache-serializer"

    var title: String {
        switch self {
        case .coldLoad: return "A cold load"
        case .memoryHit: return "A memory hit"
        case .diskHit: return "A disk hit"
        case .notFound: return "A 404"
        case .coalesced: return "Two callers, one download"
        case .cancelled: return "A cancelled load"
        case .cacheSerializer: return "A cold load with a cache serializer"
        }
    }

    /// What the scenario does, one sentence per line of the diagram's notes.
    var setup: [String] {
        switch self {
        case .coldLoad: return ["view.sd_setImage(url): nothing cached yet"]
        case .memoryHit: return ["a first load put the image in memory and on disk", "view.sd_setImage(url) again"]
        case .diskHit: return ["a first load stored the image", "cache.clearMemory()", "view.sd_setImage(url) again"]
        case .notFound: return ["view.sd_setImage(url): the server answers 404"]
        case .coalesced: return ["viewA.sd_setImage(url)", "viewB.sd_setImage(url) at once (the server waits 0.3 s)"]
        case .cancelled:
            return [
                "view.sd_setImage(url) (the server waits 2 s)",
                "view.sd_cancelCurrentImageLoad() once the operation started",
            ]
        case .cacheSerializer: return ["manager.cacheSerializer is set", "view.sd_setImage(url): nothing cached yet"]
        }
    }

    /// The server path the scenario loads.
    var path: String { "/\(rawValue).png" }

    /// Runs the scenario and returns the events of its URL reported during the measured load.
    @MainActor
    func run(on loopback: FAQLoopback) async throws -> [SDWebImageTraceEvent] {
        let server = loopback.server
        let context: SDWebImageViewContext = [SDWebImageExternalCustomManagerKey: loopback.manager]
        switch self {
        case .notFound: server.route(path, .status(404))
        case .coalesced: server.route(path, SDPortTestRoute.data(SampleImage.png, contentType: "image/png").delay(0.3))
        case .cancelled: server.route(path, SDPortTestRoute.data(SampleImage.png, contentType: "image/png").delay(2))
        default: server.route(path, .data(SampleImage.png, contentType: "image/png"))
        }
        let url = server.url(path)
        if self == .memoryHit || self == .diskHit {
            await Self.load(url, into: UIImageView(), context: context)
            await Self.flush(loopback)
            if self == .diskHit { loopback.cache.clearMemory() }
        }
        let log = DiagramEventLog(key: url.absoluteString)
        defer { log.stop() }
        if self == .cacheSerializer { loopback.manager.cacheSerializer = { _, data, _ in data } }
        defer { if self == .cacheSerializer { loopback.manager.cacheSerializer = nil } }
        switch self {
        case .coalesced:
            async let first: Void = Self.load(url, into: UIImageView(), context: context)
            async let second: Void = Self.load(url, into: UIImageView(), context: context)
            _ = await (first, second)
        case .cancelled:
            let view = UIImageView()
            view.sd_setImage(with: url, context: context, progress: nil, completed: nil)
            try await log.wait(for: "the operation's start") { events in events.contains { $0.mark == .operationStart }
            }
            view.sd_cancelCurrentImageLoad()
            try await log.wait(for: "the operation's cancel") { events in
                events.contains { $0.mark == .operationCancel }
            }
        case .cacheSerializer:
            await Self.load(url, into: UIImageView(), context: context)
            // The serializer and the store run on a global queue after the completion was called.
            try await log.wait(for: "the cache-serializer load's store") { events in
                events.contains { $0.step == .store }
            }
        default:
            await Self.load(url, into: UIImageView(), context: context)
        }
        await Self.flush(loopback)
        return log.snapshot
    }

    /// One view load; returns once its completion ran (on the main queue).
    @MainActor
    private static func load(_ url: URL, into view: UIImageView, context: SDWebImageViewContext) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            view.sd_setImage(with: url, context: context) { _, _, _, _ in continuation.resume() }
        }
    }

    /// Waits for what the load queued after its completion: the disk write on the io queue, then the main queue.
    private static func flush(_ loopback: FAQLoopback) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loopback.cache.ioQueue.async { continuation.resume() }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async { continuation.resume() }
        }
    }
}
