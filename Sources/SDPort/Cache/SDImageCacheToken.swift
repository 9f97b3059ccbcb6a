import Foundation

/// The cancel token a 5.x cache query (`SDImageCache.queryImage(forKey:options:context:done:)`) returns (V5-07).
///
/// Ports `SDImageCacheToken` (`SDImageCache.m`, 5.13.0 and later). Cancelling it stops a disk search that has not
/// started and answers the query's `done` with `(nil, nil, .none)` through the query's `SDCallbackQueue`: the
/// context's callback queue, else the main queue in 5.21.5 (the port falls back to the cache's `completionQueue`, a
/// port addition that is the main queue by default, with 5.21's policies). With the main queue and a cancel made on
/// the main thread, that answer runs before `cancel()` returns (5.21.5). 4.4.8's query returns a bare `NSOperation`,
/// whose cancel silences `done` for good when it comes before the disk search starts (a search already running still
/// answers); the port's 4.x query keeps that.
///
/// Difference: 5.x (5.13.0 on) keeps the done block in the token after the query has answered, so a cancel after the
/// answer calls `done` a second time with nothing; the port hands `done` out once (the answer or the cancel, whichever
/// comes first). `doneBlock`, `search` and `cancelled` are guarded by `lock`.
/// At tag 5.21.5: `SDWebImage/Core/SDImageCache.m:38` (`SDImageCacheToken`), `SDWebImage/Core/SDImageCache.m:48` (`-cancel`).
public final class SDImageCacheToken: Operation, @unchecked Sendable {
    /// The key the query looks up.
    public let key: String
    /// Guards the three properties below.
    private let lock = NSLock()
    private var doneBlock: SDCacheQueryCompletedBlock?
    /// The query core's own token, which stops the search.
    private var search: Operation?
    private var cancelled = false
    /// Where the cancel's answer runs.
    private let callBack: @Sendable (@escaping @Sendable () -> Void) -> Void

    init(
        key: String, done: SDCacheQueryCompletedBlock?,
        callBack: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void
    ) {
        self.key = key
        self.doneBlock = done
        self.callBack = callBack
        super.init()
    }

    /// Hands over the search's token; cancels it at once when this token already is.
    func attach(_ operation: Operation) {
        let cancelNow: Bool = lock.withLock {
            search = operation
            return cancelled
        }
        if cancelNow { operation.cancel() }
    }

    /// The query's answer: passed to `done` unless a cancel answered first.
    func answer(_ image: UIImage?, _ data: Data?, _ cacheType: SDImageCacheType) {
        let done: SDCacheQueryCompletedBlock? = lock.withLock {
            defer { doneBlock = nil }
            return doneBlock
        }
        done?(image, data, cacheType)
    }

    public override func cancel() {
        let (done, search): (SDCacheQueryCompletedBlock?, Operation?) = lock.withLock {
            if cancelled { return (nil, nil) }
            cancelled = true
            defer { doneBlock = nil }
            return (doneBlock, self.search)
        }
        super.cancel()
        search?.cancel()
        if let done {
            callBack { done(nil, nil, .none) }
        }
    }
}
