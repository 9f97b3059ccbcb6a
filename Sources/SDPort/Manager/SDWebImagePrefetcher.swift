import Foundation

/// Called after each prefetched URL with the number finished so far and the list's length.
/// Ports `SDWebImagePrefetcherProgressBlock` (4.4.8).
/// At tag 4.4.8: `SDWebImage/SDWebImagePrefetcher.h:38` (`SDWebImagePrefetcherProgressBlock`).
public typealias SDWebImagePrefetcherProgressBlock = @Sendable (_ finishedCount: Int, _ totalCount: Int) -> Void

/// Called once when the whole list is done, with the number finished and the number that gave no image.
/// Ports `SDWebImagePrefetcherCompletionBlock` (4.4.8).
/// At tag 4.4.8: `SDWebImage/SDWebImagePrefetcher.h:39` (`SDWebImagePrefetcherCompletionBlock`).
public typealias SDWebImagePrefetcherCompletionBlock = @Sendable (_ finishedCount: Int, _ skippedCount: Int) -> Void

/// Loads a list of URLs into the cache ahead of time, a few at once, in list order (MGR-14).
///
/// Ports `SDWebImagePrefetcher` (`SDWebImagePrefetcher.m`, 4.4.8): `prefetchURLs:progress:completed:` starts
/// `maxConcurrentDownloads` loads; each finished load starts the next URL (through `prefetcherQueue`, so a
/// long list never recurses) until the list is done; then the completion gets the finished and skipped counts.
/// A URL that gives no image (an error, a blacklisted URL) counts as skipped. A new `prefetchURLs` cancels the
/// previous one; `cancelPrefetching` resets the counts and cancels the manager's loads.
///
/// `init(imageManager:)` sets `maxConcurrentDownloads = 3`, and that property *is* the manager's downloader's
/// (MGR-15): making a prefetcher on a manager of the shared downloader (`SDWebImagePrefetcher.shared` does)
/// makes every download of the process run 3 at a time instead of 6. That is 4.4.8's behaviour and a known
/// surprise; 5.x gives the prefetcher its own `maxConcurrentPrefetchCount` and leaves the downloader alone.
///
/// `requestedCount` grows when a load starts, as 4.4.8's `startPrefetchingAtIndex:` counts it. Where the port
/// differs: the next index is read and counted in one locked step, whatever queue the prefetch runs on (chapter 08
/// says when 4.4.8 can start one URL twice), and completions of a cancelled or replaced prefetch are ignored by
/// generation as well as by the manager's cancellation.
///
/// The blocks and the delegate are called on the manager's `completionQueue` (main by default).
/// State is guarded by `lock`.
/// At tag 4.4.8: `SDWebImage/SDWebImagePrefetcher.m:39` (`-initWithImageManager:`), `SDWebImage/SDWebImagePrefetcher.m:112` (`-prefetchURLs:progress:completed:`).
/// At tag 5.21.5: `SDWebImage/Core/SDWebImagePrefetcher.m:82` (`-setMaxConcurrentPrefetchCount:`).
public final class SDWebImagePrefetcher: @unchecked Sendable {
    /// The shared prefetcher, on a manager of its own over the shared cache and downloader.
    public static let shared = SDWebImagePrefetcher()

    /// The manager every prefetch goes through.
    public let manager: SDWebImageManager

    /// Guards every stored property below.
    private let lock = NSLock()
    private var _options: SDWebImageOptions = .lowPriority
    private var _prefetcherQueue: DispatchQueue = .main
    private weak var _delegate: (any SDWebImagePrefetcherDelegate)?
    /// The running prefetch: its list, counters, blocks, and a generation that changes on every start and cancel.
    private var prefetchURLs: [URL]?
    private var _requestedCount = 0
    private var finishedCount = 0
    private var skippedCount = 0
    private var generation = 0
    private var progressBlock: SDWebImagePrefetcherProgressBlock?
    private var completionBlock: SDWebImagePrefetcherCompletionBlock?

    /// A prefetcher on a new manager over the shared cache and downloader (the original's `-init`).
    public convenience init() {
        self.init(imageManager: SDWebImageManager())
    }

    /// A prefetcher that loads through `imageManager`.
    public init(imageManager: SDWebImageManager) {
        manager = imageManager
        maxConcurrentDownloads = 3  // the downloader's setting: see the type's documentation
    }

    /// The options of every prefetch load; `LowPriority` by default.
    public var options: SDWebImageOptions {
        get { lock.withLock { _options } }
        set { lock.withLock { _options = newValue } }
    }

    /// How many loads the prefetcher starts at once, and how many downloads the manager's downloader runs at once:
    /// 4.4.8 passes this property through to `manager.imageDownloader.maxConcurrentDownloads`.
    public var maxConcurrentDownloads: Int {
        get { manager.imageDownloader.maxConcurrentDownloads }
        set { manager.imageDownloader.maxConcurrentDownloads = newValue }
    }

    /// How many loads of the running prefetch have started (port addition, for inspection; 4.4.8 keeps it private).
    public var requestedCount: Int { lock.withLock { _requestedCount } }

    /// The queue the next URL is started from; the main queue by default.
    public var prefetcherQueue: DispatchQueue {
        get { lock.withLock { _prefetcherQueue } }
        set { lock.withLock { _prefetcherQueue = newValue } }
    }

    /// The delegate, held weakly.
    public var delegate: (any SDWebImagePrefetcherDelegate)? {
        get { lock.withLock { _delegate } }
        set { lock.withLock { _delegate = newValue } }
    }

    /// Prefetches `urls` without blocks.
    public func prefetchURLs(_ urls: [URL]?) {
        prefetchURLs(urls, progress: nil, completed: nil)
    }

    /// Cancels any running prefetch, then loads `urls`. An empty or nil list completes at once with (0, 0).
    public func prefetchURLs(
        _ urls: [URL]?, progress: SDWebImagePrefetcherProgressBlock?,
        completed: SDWebImagePrefetcherCompletionBlock?
    ) {
        cancelPrefetching()
        guard let urls, !urls.isEmpty else {
            completed?(0, 0)
            return
        }
        let startGeneration: Int = lock.withLock {
            prefetchURLs = urls
            progressBlock = progress
            completionBlock = completed
            return generation
        }
        // `maxConcurrentDownloads` loads, the bound read as 4.4.8's unsigned number (`SDWebImagePrefetcher.m:127-130`):
        // -1 (the operation queue's "default") starts every URL. 0 starts none, and nothing completes; that is 4.4.8
        // too, and the downloader's queue, also set to 0, would run no download anyway.
        let slots = maxConcurrentDownloads < 0 ? urls.count : maxConcurrentDownloads
        for _ in 0..<min(slots, urls.count) {
            startNextPrefetch(generation: startGeneration)
        }
    }

    /// Stops the running prefetch: resets the counters and cancels every load of the manager.
    public func cancelPrefetching() {
        lock.withLock {
            generation += 1
            prefetchURLs = nil
            _requestedCount = 0
            finishedCount = 0
            skippedCount = 0
            progressBlock = nil
            completionBlock = nil
        }
        manager.cancelAll()
    }

    /// What a finished load leads to, decided under the lock and carried out outside it.
    private struct Step {
        var url: URL
        var finished: Int
        var skipped: Int
        var total: Int
        var progress: SDWebImagePrefetcherProgressBlock?
        var delegate: (any SDWebImagePrefetcherDelegate)?
        var startsAnother = false
        var queue: DispatchQueue
        var isLast = false
        var completion: SDWebImagePrefetcherCompletionBlock?
    }

    /// Loads the URL at index `requestedCount` and counts it (4.4.8's `startPrefetchingAtIndex:`); nothing when
    /// every URL has started or the prefetch was cancelled or replaced. The replaced case is the port's generation
    /// check: in 4.4.8 a start the old prefetch had queued runs against the new list and starts its next URL, if any.
    private func startNextPrefetch(generation startGeneration: Int) {
        let (url, options): (URL?, SDWebImageOptions) = lock.withLock {
            guard startGeneration == generation, let urls = prefetchURLs, _requestedCount < urls.count else {
                return (nil, [])
            }
            defer { _requestedCount += 1 }
            return (urls[_requestedCount], _options)
        }
        guard let url else { return }
        manager.loadImage(with: url, options: options, progress: nil) { [weak self] image, _, _, _, finished, _ in
            guard finished, let self else { return }
            guard let step = self.recordFinishedLoad(url: url, gotImage: image != nil, generation: startGeneration)
            else { return }
            step.progress?(step.finished, step.total)
            step.delegate?.imagePrefetcher(
                self, didPrefetchURL: step.url, finishedCount: step.finished, totalCount: step.total)
            if step.startsAnother {
                // Through the queue, not recursively, so a long list cannot grow the stack.
                step.queue.async { self.startNextPrefetch(generation: startGeneration) }
            } else if step.isLast {
                step.delegate?.imagePrefetcher(
                    self, didFinishWithTotalCount: step.total - step.skipped,
                    skippedCount: step.skipped)
                step.completion?(step.finished, step.skipped)
            }
        }
    }

    /// Counts one finished load; nil when it belongs to a prefetch that was cancelled or replaced.
    private func recordFinishedLoad(url: URL, gotImage: Bool, generation startGeneration: Int) -> Step? {
        lock.withLock {
            guard startGeneration == generation, let urls = prefetchURLs else { return nil }
            finishedCount += 1
            if !gotImage { skippedCount += 1 }
            var step = Step(
                url: url, finished: finishedCount, skipped: skippedCount, total: urls.count,
                progress: progressBlock, delegate: _delegate, queue: _prefetcherQueue)
            if urls.count > _requestedCount {
                step.startsAnother = true
            } else if finishedCount == _requestedCount {
                step.isLast = true
                step.completion = completionBlock
                completionBlock = nil
                progressBlock = nil
            }
            return step
        }
    }
}
