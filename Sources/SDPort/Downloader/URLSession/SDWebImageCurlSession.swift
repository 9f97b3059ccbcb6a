import Foundation

/// A small NSURLSession stand-in over libcurl: it makes data tasks, runs them on one libcurl multi handle
/// (`SDWebImageCurlEngine`), calls the session's delegate on one serial delegate queue, and applies the HTTP
/// protocol cache and cookies the way NSURLSession does for the requests `SDWebImageDownloader` makes. `file:`
/// URLs are read from disk, as NSURLSession reads them (DL-17).
///
/// The delegate is the session's, as with `+sessionWithConfiguration:delegate:delegateQueue:`: the downloader
/// passes itself and forwards each task's callbacks to the operation that owns the task (DL-18). NSURLSession
/// keeps its delegate until it is invalidated, so in 4.4.8 a downloader that is never invalidated is never freed
/// (its header asks callers to invalidate). The port's session holds its delegate weakly, so a downloader is freed
/// with its last reference and its `deinit` invalidates the session.
///
/// Port of the role `NSURLSession` plays in `SDWebImageDownloader.m` (4.4.8, `createNewSessionWithConfiguration:`),
/// needed because Linux's FoundationNetworking lacks the delegate hooks the original relies on (5.x uses
/// NSURLSession the same way, so the stand-in serves both). What it reads
/// from the `URLSessionConfiguration`:
/// - `timeoutIntervalForRequest`: used when a request has no `timeoutInterval` of its own. **A timeout is an
///   idle timeout**, as on NSURLSession: a transfer fails with NSURLErrorTimedOut (-1001) when no byte
///   arrives for that long (connecting included); a slow download that keeps receiving never times out. The
///   engine measures it itself (libcurl's `LOW_SPEED_TIME` counts whole seconds, `TIMEOUT_MS` would cap the
///   total time); `CURLOPT_CONNECTTIMEOUT_MS` gets the same value.
/// - `urlCache` (the protocol cache store), `httpCookieStorage` and `httpShouldSetCookies`,
///   `httpAdditionalHeaders` (added when the request lacks them).
/// - `httpShouldUsePipelining` maps to connection reuse and HTTP/2 multiplexing; `httpMaximumConnectionsPerHost`
///   is not applied (the downloader's operation queue bounds concurrency).
/// At tag 4.4.8: `SDWebImage/SDWebImageDownloader.m:132` (`-createNewSessionWithConfiguration:`).
public final class SDWebImageCurlSession: @unchecked Sendable {
    /// A private copy of the configuration it was made with; never mutated after `init`.
    public let configuration: URLSessionConfiguration
    /// The serial queue every task delegate call runs on (NSURLSession's delegate queue).
    public let delegateQueue: DispatchQueue

    let engine: SDWebImageCurlEngine?
    /// The session's delegate (weak, see above). Guarded by `lock`.
    private weak var _delegate: SDWebImageCurlTaskDelegate?
    /// Guards `URLCache` reads and writes: the original synchronizes its own lookup on the cache for the same reason
    /// (the one it makes with `IgnoreCachedResponse`, `SDWebImageDownloaderOperation.m:170`).
    private let cacheLock = NSLock()
    /// Guards the task bookkeeping below.
    private let lock = NSLock()
    private var isInvalidated = false
    private var stopsWhenIdle = false
    private var nextTaskIdentifier = 1
    private var outstanding: [Int: SDWebImageCurlTask] = [:]

    /// A session whose tasks report to `delegate` (nil: only tasks made with a delegate of their own report).
    public init(configuration: URLSessionConfiguration, delegate: SDWebImageCurlTaskDelegate? = nil) {
        self.configuration = configuration.copy() as? URLSessionConfiguration ?? configuration
        delegateQueue = DispatchQueue(label: "com.hackemist.SDWebImageCurlSession.delegateQueue")
        engine = SDWebImageCurlEngine(name: "com.hackemist.SDWebImageCurlSession.transport")
        _delegate = delegate
    }

    /// The session's delegate. Set once, before the first task: the downloader makes its session before it can
    /// pass itself, which `+sessionWithConfiguration:delegate:` does in one call.
    public internal(set) var delegate: SDWebImageCurlTaskDelegate? {
        get { lock.withLock { _delegate } }
        set { lock.withLock { _delegate = newValue } }
    }

    deinit {
        engine?.submit(.stop(SDWebImageDownloaderError.cancelled(nil)))
    }

    /// The protocol cache store, or nil when the configuration has none.
    public var urlCache: URLCache? { configuration.urlCache }

    /// A task for `request` that reports to the session's delegate, not yet resumed; nil once the session is
    /// invalidated (or libcurl failed to start). `-dataTaskWithRequest:`.
    public func dataTask(with request: URLRequest) -> SDWebImageCurlTask? {
        makeTask(request, delegate: nil)
    }

    /// A task that reports to `delegate` instead of the session's (a task delegate, as NSURLSessionTask's
    /// `delegate` since iOS 15; 4.4.8 does not use it). For tests and tools that drive the session directly.
    public func dataTask(with request: URLRequest, delegate: SDWebImageCurlTaskDelegate) -> SDWebImageCurlTask? {
        makeTask(request, delegate: delegate)
    }

    private func makeTask(_ request: URLRequest, delegate: SDWebImageCurlTaskDelegate?) -> SDWebImageCurlTask? {
        guard engine != nil else { return nil }
        return lock.withLock {
            guard !isInvalidated else { return nil }
            let task = SDWebImageCurlTask(
                identifier: nextTaskIdentifier, request: request, session: self, delegate: delegate)
            outstanding[nextTaskIdentifier] = task
            nextTaskIdentifier += 1
            return task
        }
    }

    /// Refuses new tasks, cancels the running ones (their delegates get NSURLErrorCancelled) and stops the thread.
    public func invalidateAndCancel() {
        let tasks = lock.withLock { () -> [SDWebImageCurlTask] in
            isInvalidated = true
            return Array(outstanding.values)
        }
        for task in tasks { task.cancel() }
        engine?.submit(.stop(SDWebImageDownloaderError.cancelled(nil)))
    }

    /// Refuses new tasks and stops the thread once the running ones have finished.
    public func finishTasksAndInvalidate() {
        let idle = lock.withLock { () -> Bool in
            isInvalidated = true
            stopsWhenIdle = true
            return outstanding.isEmpty
        }
        if idle { engine?.submit(.stop(SDWebImageDownloaderError.cancelled(nil))) }
    }

    /// Number of tasks made and not yet completed.
    public var outstandingTaskCount: Int { lock.withLock { outstanding.count } }

    func taskDidComplete(_ task: SDWebImageCurlTask) {
        let stopNow = lock.withLock { () -> Bool in
            outstanding[task.taskIdentifier] = nil
            return stopsWhenIdle && outstanding.isEmpty
        }
        if stopNow { engine?.submit(.stop(SDWebImageDownloaderError.cancelled(nil))) }
    }

    // MARK: Protocol cache and cookies

    func cachedResponse(for request: URLRequest) -> CachedURLResponse? {
        guard let cache = configuration.urlCache else { return nil }
        return cacheLock.withLock { cache.cachedResponse(for: request) }
    }

    func storeCachedResponse(_ response: CachedURLResponse, for request: URLRequest) {
        guard let cache = configuration.urlCache else { return }
        cacheLock.withLock { cache.storeCachedResponse(response, for: request) }
    }

    /// The cookie store, when cookies are handled for `request`.
    func cookieStorage(for request: URLRequest) -> HTTPCookieStorage? {
        guard request.httpShouldHandleCookies, configuration.httpShouldSetCookies else { return nil }
        return configuration.httpCookieStorage ?? HTTPCookieStorage.shared
    }
}
