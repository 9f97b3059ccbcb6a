import Foundation

/// Called after each prefetched URL with the number finished so far and the list's length.
/// Ports `SDWebImagePrefetcherProgressBlock` (4.4.8).
public typealias SDWebImagePrefetcherProgressBlock = @Sendable (_ finishedCount: Int, _ totalCount: Int) -> Void

/// Called once when the whole list is done, with the number finished and the number that gave no image.
/// Ports `SDWebImagePrefetcherCompletionBlock` (4.4.8).
public typealias SDWebImagePrefetcherCompletionBlock = @Sendable (_ finishedCount: Int, _ skippedCount: Int) -> Void

/// Loads a list of URLs into the cache ahead of time, a few at once, in list order (MGR-14).
///
/// Ports `SDWebImagePrefetcher` (`SDWebImagePrefetcher.m`, 4.4.8): `prefetchURLs:progress:completed:` starts
/// `maxConcurrentPrefetchCount` loads; each finished load starts the next URL (through `prefetcherQueue`, so a
/// long list never recurses) until the list is done; then the completion gets the finished and skipped counts.
/// A URL that gives no image (an error, a blacklisted URL) counts as skipped. A new `prefetchURLs` cancels the
/// previous one; `cancelPrefetching` resets the counts and cancels the manager's loads.
///
/// Differences:
/// - 4.4.8 starts `maxConcurrentDownloads` loads and sets the downloader's `maxConcurrentDownloads` to 3 in
///   `init`, changing the shared downloader for everyone. The port keeps `maxConcurrentDownloads` as the
///   original's pass-through to the downloader, but leaves the downloader alone in `init` and counts its own
///   parallel loads with `maxConcurrentPrefetchCount` (default 3), the name and meaning 5.x gives it.
/// - Completions of a cancelled or replaced prefetch are ignored by generation, in addition to the manager's
///   cancellation (the original relies on the cancellation alone).
///
/// The blocks and the delegate are called on the manager's `completionQueue` (main by default).
/// State is guarded by `lock`.
public final class SDWebImagePrefetcher: @unchecked Sendable {
    /// The shared prefetcher, on a manager of its own over the shared cache and downloader.
    public static let shared = SDWebImagePrefetcher()

    /// The manager every prefetch goes through.
    public let manager: SDWebImageManager

    /// Guards every stored property below.
    private let lock = NSLock()
    private var _options: SDWebImageOptions = .lowPriority
    private var _maxConcurrentPrefetchCount = 3
    private var _prefetcherQueue: DispatchQueue = .main
    private weak var _delegate: (any SDWebImagePrefetcherDelegate)?
    /// The running prefetch: its list, counters, blocks, and a generation that changes on every start and cancel.
    private var prefetchURLs: [URL]?
    private var requestedCount = 0
    private var finishedCount = 0
    private var skippedCount = 0
    private var generation = 0
    private var progressBlock: SDWebImagePrefetcherProgressBlock?
    private var completionBlock: SDWebImagePrefetcherCompletionBlock?

    /// A prefetcher on a new manager over the shared cache and downloader (the original's `-init`).
    public convenience init() {
        self.init(imageManager: SDWebImageManager())
    }

    public init(imageManager: SDWebImageManager) {
        manager = imageManager
    }

    /// The options of every prefetch load; `LowPriority` by default.
    public var options: SDWebImageOptions {
        get { lock.withLock { _options } }
        set { lock.withLock { _options = newValue } }
    }

    /// How many URLs are loaded at once (5.x's name; 4.4.8 uses `maxConcurrentDownloads` for this).
    public var maxConcurrentPrefetchCount: Int {
        get { lock.withLock { _maxConcurrentPrefetchCount } }
        set { lock.withLock { _maxConcurrentPrefetchCount = max(1, newValue) } }
    }

    /// The manager's downloader's concurrency, as the original's property passes it through.
    public var maxConcurrentDownloads: Int {
        get { manager.imageDownloader.maxConcurrentDownloads }
        set { manager.imageDownloader.maxConcurrentDownloads = newValue }
    }

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
    public func prefetchURLs(_ urls: [URL]?, progress: SDWebImagePrefetcherProgressBlock?,
                             completed: SDWebImagePrefetcherCompletionBlock?) {
        cancelPrefetching()
        guard let urls, !urls.isEmpty else {
            completed?(0, 0)
            return
        }
        let (startGeneration, firstIndices): (Int, Range<Int>) = lock.withLock {
            prefetchURLs = urls
            progressBlock = progress
            completionBlock = completed
            let count = min(_maxConcurrentPrefetchCount, urls.count)
            requestedCount = count
            return (generation, 0..<count)
        }
        for index in firstIndices {
            startPrefetching(at: index, generation: startGeneration)
        }
    }

    /// Stops the running prefetch: resets the counters and cancels every load of the manager.
    public func cancelPrefetching() {
        lock.withLock {
            generation += 1
            prefetchURLs = nil
            requestedCount = 0
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
        var nextIndex: Int?
        var queue: DispatchQueue
        var isLast = false
        var completion: SDWebImagePrefetcherCompletionBlock?
    }

    /// Loads the URL at `index`, whose slot was already counted in `requestedCount`.
    private func startPrefetching(at index: Int, generation startGeneration: Int) {
        let (url, options): (URL?, SDWebImageOptions) = lock.withLock {
            guard startGeneration == generation, let urls = prefetchURLs, index < urls.count else { return (nil, []) }
            return (urls[index], _options)
        }
        guard let url else { return }
        manager.loadImage(with: url, options: options, progress: nil) { [weak self] image, _, _, _, finished, _ in
            guard finished, let self else { return }
            guard let step = self.recordFinishedLoad(url: url, gotImage: image != nil, generation: startGeneration) else { return }
            step.progress?(step.finished, step.total)
            step.delegate?.imagePrefetcher(self, didPrefetchURL: step.url, finishedCount: step.finished, totalCount: step.total)
            if let nextIndex = step.nextIndex {
                // Through the queue, not recursively, so a long list cannot grow the stack.
                step.queue.async { self.startPrefetching(at: nextIndex, generation: startGeneration) }
            } else if step.isLast {
                step.delegate?.imagePrefetcher(self, didFinishWithTotalCount: step.total - step.skipped,
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
            var step = Step(url: url, finished: finishedCount, skipped: skippedCount, total: urls.count,
                            progress: progressBlock, delegate: _delegate, nextIndex: nil, queue: _prefetcherQueue)
            if urls.count > requestedCount {
                step.nextIndex = requestedCount
                requestedCount += 1
            } else if finishedCount == requestedCount {
                step.isLast = true
                step.completion = completionBlock
                completionBlock = nil
                progressBlock = nil
            }
            return step
        }
    }
}
