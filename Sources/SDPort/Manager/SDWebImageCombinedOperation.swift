import Foundation

/// The handle `SDWebImageManager.loadImage` returns: one load, made of a cache query and maybe a download, that
/// can be cancelled as a whole (MGR-11).
///
/// Ports `SDWebImageCombinedOperation` (`SDWebImageManager.m`, 4.4.8, where it is private to the file; the
/// port makes it public so callers can read `isCancelled` and set `cancelBlock`).
///
/// - `cancel()` marks the load cancelled, cancels the cache query, and calls `cancelBlock` once. The manager
///   sets `cancelBlock` to cancel the download token and drop the load from `runningOperations` (the 4.0–4.2
///   shape; 4.4.8 keeps the token in a property and cancels it from `cancel`, which is the same thing).
/// - A `cancelBlock`, cache operation or download token handed over after `cancel()` is cancelled at once, so
///   a cancel that races with the manager starting the download never leaves the download running (4.4.8 can).
/// - Delivery: the manager hands every completion to `deliverUnlessCancelled`, which runs it under the same
///   lock `cancel()` takes. Once `cancel()` has returned, no completion of this load runs, from any thread
///   (the original promises that only for cancels made on the main queue).
///
/// 5.x: `SDWebImageCombinedOperation` is public there too, with `cacheOperation` and `loaderOperation`.
///
/// State is guarded by `lock`, a recursive lock so that a completion may cancel its own load. Because a completion
/// runs holding its load's lock, a completion must not wait synchronously for another thread that is itself
/// delivering a completion of a load this one cancels (two completion queues cancelling each other's loads).
/// With one serial completion queue (the main queue, by default) that cannot happen.
/// At tag 4.4.8: `SDWebImage/SDWebImageManager.m:16` (`SDWebImageCombinedOperation`), `SDWebImage/SDWebImageManager.m:356` (`-cancel`).
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageManager.h:25` (`SDWebImageCombinedOperation`).
public final class SDWebImageCombinedOperation: SDWebImageOperation, @unchecked Sendable {
    /// Guards every stored property below; recursive because a completion, run under it, may call `cancel()`.
    private let lock = NSRecursiveLock()
    private var cancelled = false
    private var _cacheOperation: Operation?
    private var _downloadToken: SDWebImageDownloadToken?
    private var _cancelBlock: SDWebImageNoParamsBlock?
    /// Port addition: observers told once when the load is cancelled (the async faces use them).
    private var cancellationHandlers: [SDWebImageNoParamsBlock] = []

    /// The manager that runs this load; weak, as in the original, because the manager keeps the operation.
    public private(set) weak var manager: SDWebImageManager?

    init(manager: SDWebImageManager?) {
        self.manager = manager
    }

    /// Whether `cancel()` has been called.
    public var isCancelled: Bool { lock.withLock { cancelled } }

    /// The disk query of the cache, used only to cancel it (FAQ-11).
    public var cacheOperation: Operation? {
        get { lock.withLock { _cacheOperation } }
        set {
            let cancelNow: Bool = lock.withLock {
                if cancelled { return true }
                _cacheOperation = newValue
                return false
            }
            if cancelNow { newValue?.cancel() }
        }
    }

    /// The download this load joined, if it needed one (4.4.8's `downloadToken`).
    public var downloadToken: SDWebImageDownloadToken? {
        get { lock.withLock { _downloadToken } }
        set { lock.withLock { _downloadToken = newValue } }
    }

    /// Called once when the load is cancelled; set after `cancel()` it runs at once (MGR-11).
    public var cancelBlock: SDWebImageNoParamsBlock? {
        get { lock.withLock { _cancelBlock } }
        set {
            let runNow: SDWebImageNoParamsBlock? = lock.withLock {
                if cancelled { return newValue }
                _cancelBlock = newValue
                return nil
            }
            runNow?()
        }
    }

    /// Cancels the load: no completion of it is called after this returns.
    public func cancel() {
        let (cacheOperation, cancelBlock, handlers): (Operation?, SDWebImageNoParamsBlock?, [SDWebImageNoParamsBlock]) =
            lock.withLock {
                if cancelled { return (nil, nil, []) }
                cancelled = true
                defer {
                    _cacheOperation = nil
                    _cancelBlock = nil
                    cancellationHandlers = []
                }
                return (_cacheOperation, _cancelBlock, cancellationHandlers)
            }
        // Outside the lock: these call into the cache and the downloader, which take their own locks.
        cacheOperation?.cancel()
        cancelBlock?()
        manager?.safelyRemoveOperationFromRunning(self)
        for handler in handlers { handler() }
    }

    /// Runs `body` unless the load is cancelled, holding the lock so `cancel()` cannot slip in between the check
    /// and the call. Returns whether `body` ran.
    @discardableResult
    func deliverUnlessCancelled(_ body: () -> Void) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !cancelled else { return false }
        body()
        return true
    }

    /// Port addition: calls `handler` once when the load is cancelled, or at once if it already is.
    func whenCancelled(_ handler: @escaping SDWebImageNoParamsBlock) {
        let runNow: Bool = lock.withLock {
            if cancelled { return true }
            cancellationHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }
}
