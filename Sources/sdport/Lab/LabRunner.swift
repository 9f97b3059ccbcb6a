import Foundation
import SDPort

/// Runs a `LabScenario` through both flows of the port's `SDWebImageManager` and reads what happened.
///
/// Each flow gets its own loopback server, downloader, cache (in a temporary directory) and manager
/// (`FAQLoopback`), so neither sees the other's failed URLs or cached images. Completions (the manager's, the
/// cache's and the downloader's) go to one private serial queue rather than the main queue, so the runner works the
/// same inside `sdport` and inside a test. The outcome is read only when the flow is done: every caller has had its
/// finished call (or, for the cancel scenarios, the download has stopped), the manager runs no load any more (except
/// one whose download was cancelled below the manager: 4.4.8's default download operation never calls that one back,
/// so it stays listed), and that queue, the cache's io queue (disk writes) and that queue again have run everything
/// queued so far.
/// Port addition.
enum LabRunner {
    /// How long a flow may take before its outcome is read anyway (a guard, not an expectation: every scenario
    /// ends in well under a second except two-callers, whose server waits one second).
    static let timeout: TimeInterval = 30

    /// Both flows of `scenario`, 4.4.8 first.
    static func compare(_ scenario: LabScenario, myths: [Myth] = Myth.all) async throws -> LabComparison {
        let v4 = try await run(scenario, flow: .v4)
        let v5 = try await run(scenario, flow: .v5)
        return LabComparison(scenario: scenario, v4: v4, v5: v5, myth: scenario.myth(in: myths))
    }

    /// One flow of `scenario`.
    static func run(_ scenario: LabScenario, flow: LabFlow) async throws -> LabOutcome {
        try await FAQLoopback.with { loopback in
            let callbacks = DispatchQueue(label: "sdport.lab.completion")
            loopback.manager.completionQueue = callbacks
            loopback.cache.completionQueue = callbacks
            loopback.downloader.config.completionQueue = callbacks
            loopback.server.route(scenario.path, scenario.route)
            let url = loopback.server.url(scenario.path)
            let recorder = LabRecorder(callers: scenario.callers)
            let delegate = LabFlipDelegate()
            let transformer = delegate.transformer
            var context: SDWebImageContext = [:]
            if scenario == .transformer {
                if flow == .v4 { loopback.manager.delegate = delegate }
                context[.imageTransformer] = transformer
            }

            var operations: [SDWebImageCombinedOperation] = []
            for caller in 1...scenario.callers {
                switch flow {
                case .v4:
                    let options: SDWebImageOptions = scenario == .cacheOnlyMiss ? [.fromCacheOnly] : []
                    operations.append(
                        loopback.manager.loadImage(
                            with: url, options: options, progress: nil,
                            completed: recorder.completion(caller: caller)))
                case .v5:
                    let options: SDWebImageV5Options = scenario == .cacheOnlyMiss ? [.fromCacheOnly] : []
                    operations.append(
                        loopback.manager.loadImage(
                            with: url, options: options, context: context,
                            progress: nil,
                            completed: recorder.completion(caller: caller)))
                }
            }

            switch scenario {
            case .cancel:
                // Cancel once the request is at the server, so the download is really running.
                _ = await waitUntil { loopback.server.hits(scenario.path) >= 1 }
                for operation in operations { operation.cancel() }
                _ = await waitUntil { loopback.downloader.currentDownloadCount == 0 }
            case .cancelAll:
                // A cancel below the manager: the loads' own operations are left alone.
                _ = await waitUntil { loopback.server.hits(scenario.path) >= 1 }
                loopback.downloader.cancelAllDownloads()
                _ = await waitUntil { loopback.downloader.currentDownloadCount == 0 }
            default:
                await recorder.waitUntilEveryCallerFinished(timeout: timeout)
            }
            // The final call can come before the flow is done with the load: 4.4.8 calls the completion first (on
            // the main queue; here the completion queue), then blacklists the URL if the error is not an exempt one
            // (or, when the delegate implements `imageManager:shouldBlockFailedURL:withError:`, if it says so), then
            // drops the load from runningOperations. Dropping it is the last step of both flows, so once nothing
            // runs, failedURLs is final. A load nobody called back (4.4.8's default download operation drops its
            // callbacks on a cancel below the manager) is not dropped unless its own operation is cancelled: its run
            // ends once the download has stopped and the completion queue has run what the stop queued.
            if scenario == .cancelAll {
                await drain(callbacks)
                if flow == .v5 { _ = await waitUntil { !loopback.manager.isRunning } }
            } else {
                _ = await waitUntil { !loopback.manager.isRunning }
            }
            await drain(callbacks)
            await drain(loopback.cache.ioQueue)
            await drain(callbacks)
            withExtendedLifetime(delegate) {}

            var keys: [(String, String?)] = []
            switch flow {
            case .v4:
                keys.append(("URL key", loopback.manager.cacheKey(for: url)))
            case .v5:
                let key = loopback.manager.cacheKey(for: url, context: context)
                let original = loopback.manager.originalCacheKey(for: url, context: context)
                if key != original { keys.append(("transformed key", key)) }
                keys.append(("URL key", original))
            }
            let stored = keys.compactMap { role, key -> LabStorage? in
                guard let key else { return nil }
                return LabStorage(
                    role: role, key: key, memory: loopback.cache.imageFromMemoryCache(forKey: key) != nil,
                    disk: loopback.cache.diskImageDataExists(withKey: key))
            }
            return LabOutcome(
                flow: flow, callbacks: recorder.callbacks,
                blacklisted: loopback.manager.failedURLs.contains(url), stored: stored,
                serverRequests: loopback.server.hits(scenario.path),
                runningLoads: loopback.manager.runningOperations.count)
        }
    }

    /// Returns once `queue` has run every block queued on it before this call.
    private static func drain(_ queue: DispatchQueue) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }

    /// Polls `condition` every 10 ms until it holds or `timeout` passes; returns whether it held. Used for state
    /// the library announces nowhere else (a request reaching the server, the download queue emptying, the
    /// manager's running loads).
    private static func waitUntil(_ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { return false }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return true
    }
}
