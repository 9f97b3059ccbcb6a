import Foundation

/// Downloads images: one operation per URL (an `SDWebImageDownloaderOperation` unless `setOperationClass` picks
/// another class) on an operation queue, with later callers of the same URL joining the operation listed for it.
///
/// Ports `SDWebImageDownloader` (`SDWebImageDownloader.m`, 4.4.8). Structure kept from the original: an
/// `OperationQueue` named `com.hackemist.SDWebImageDownloader` (6 at a time), the running operations by URL in
/// `URLOperations` behind the semaphore `operationsLock` and the HTTP headers behind `headersLock`, as 4.4.8 guards
/// them (`SDWebImageDownloader.m:12-13,42-43`; 4.0–4.2 guarded `URLOperations` with a concurrent "barrier" queue and
/// the headers not at all), the operation class, and one session shared by all operations, whose delegate the
/// downloader is: each task callback is forwarded to the operation that owns the task
/// (`SDWebImageDownloader+SessionDelegate.swift`, DL-18).
///
/// Where Linux forces a difference: the session is `SDWebImageCurlSession` (libcurl) instead of NSURLSession.
/// The session's protocol cache is the configuration's `urlCache`; `init()` uses `URLCache.shared`, the cache of
/// 4.4.8's default session configuration (DL-20); pass a configuration to choose another. The User-Agent has
/// the form of 4.4.8's macOS one with what Linux has instead of a bundle (`defaultUserAgent()`, chapter 08).
/// 5.x moves most settings (timeout, order, credentials, operation class) into `SDWebImageDownloaderConfig` but keeps
/// the headers on the downloader; from 5.2.0 all pending operations depend on a new one for LIFO.
/// At tag 4.4.8: `SDWebImage/SDWebImageDownloader.m:88` (`-initWithSessionConfiguration:`), `SDWebImage/SDWebImageDownloader.m:283` (`-downloadImageWithURL:options:progress:completed:`).
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageDownloader.m:93` (`-initWithConfig:`), `SDWebImage/Core/SDWebImageDownloader.m:290` (`-createDownloaderOperationWithUrl:options:context:`).
@dynamicMemberLookup
public final class SDWebImageDownloader: @unchecked Sendable {
    /// The shared downloader, used by `SDWebImageManager.shared`.
    public static let shared = SDWebImageDownloader()

    let downloadQueue: OperationQueue
    /// Guards `URLOperations` and `lastAddedOperation` (4.4.8's `operationsLock`, a semaphore of 1).
    private let operationsLock = DispatchSemaphore(value: 1)
    /// The running operation of each URL. Guarded by `operationsLock`.
    private var URLOperations: [URL: any Operation & SDWebImageDownloaderOperationInterface] = [:]
    /// The operation added last, for LIFO. Guarded by `operationsLock`.
    private weak var lastAddedOperation: Operation?

    /// Guards `settings` (4.4.8's `headersLock`, a semaphore of 1). The port keeps the headers in one value with the
    /// other settings, which 4.4.8 keeps in plain nonatomic properties, so `makeOperation` builds a request from the
    /// settings of one moment.
    private let headersLock = DispatchSemaphore(value: 1)
    /// Every setting, the HTTP headers among them. Guarded by `headersLock`.
    private var settings: SDWebImageDownloaderConfig
    /// The session every new operation runs in; replaced by `createNewSession(with:)`. Its own lock.
    private let currentSession: SDLocked<SDWebImageCurlSession>

    /// A weak reference that can cross threads: the completion block must not keep its operation alive.
    private final class WeakOperation: @unchecked Sendable {  // `value` is written once, in init
        weak var value: Operation?
        init(_ value: Operation) { self.value = value }
    }

    /// A downloader with the default session configuration, whose protocol cache is `URLCache.shared`, as
    /// `[NSURLSessionConfiguration defaultSessionConfiguration]`'s is.
    public convenience init() {
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = URLCache.shared
        self.init(sessionConfiguration: configuration)
    }

    /// A downloader whose session uses `sessionConfiguration` (nil: the default one), with its
    /// `timeoutIntervalForRequest` replaced by `downloadTimeout` (15 s), as the original does with a non-nil
    /// configuration (DL-01; on nil, 4.4.8's assignment goes to nil and does nothing).
    public init(sessionConfiguration: URLSessionConfiguration?) {
        downloadQueue = OperationQueue()
        downloadQueue.maxConcurrentOperationCount = 6
        downloadQueue.name = "com.hackemist.SDWebImageDownloader"
        var config = SDWebImageDownloaderConfig()
        config.httpHeaders = ["Accept": "image/webp,image/*;q=0.8"]  // WebP is built in (FAQ-12)
        config.httpHeaders["User-Agent"] = SDWebImageDownloader.defaultUserAgent()
        settings = config
        currentSession = SDLocked(
            wrappedValue: SDWebImageDownloader.makeSession(sessionConfiguration, timeout: config.downloadTimeout))
        currentSession.wrappedValue.delegate = self
    }

    /// Runs `body` holding `lock`, a semaphore used as a lock (4.4.8's `LOCK`/`UNLOCK` macros).
    private func locked<T>(_ lock: DispatchSemaphore, _ body: () throws -> T) rethrows -> T {
        lock.wait()
        defer { lock.signal() }
        return try body()
    }

    /// Every setting, read at once under `headersLock`.
    private var currentSettings: SDWebImageDownloaderConfig { locked(headersLock) { settings } }

    deinit {
        currentSession.wrappedValue.invalidateAndCancel()
        downloadQueue.cancelAllOperations()
    }

    /// A session on a copy of `configuration` (nil: the default one) whose request timeout is `timeout`.
    private static func makeSession(_ configuration: URLSessionConfiguration?, timeout: TimeInterval)
        -> SDWebImageCurlSession
    {
        let configuration = configuration?.copy() as? URLSessionConfiguration ?? URLSessionConfiguration.default
        configuration.timeoutIntervalForRequest = timeout
        return SDWebImageCurlSession(configuration: configuration)
    }

    private var session: SDWebImageCurlSession { currentSession.wrappedValue }

    /// The current session's delegate: the downloader itself (DL-18; for tests and tools).
    public var sessionDelegate: SDWebImageCurlTaskDelegate? { session.delegate }

    /// Cancels every download, invalidates the session and makes a new one from `sessionConfiguration`, whose
    /// request timeout becomes `downloadTimeout` (DL-15). Ports `createNewSessionWithConfiguration:` (4.4.8; its
    /// `init` calls it too, the port's makes the first session directly). 4.4.8 changes the caller's
    /// configuration object, the port changes a copy.
    public func createNewSession(with sessionConfiguration: URLSessionConfiguration) {
        cancelAllDownloads()
        let replacement = SDWebImageDownloader.makeSession(
            sessionConfiguration, timeout: currentSettings.downloadTimeout)
        replacement.delegate = self
        let old = currentSession.withLock { session -> SDWebImageCurlSession in
            defer { session = replacement }
            return session
        }
        old.invalidateAndCancel()
    }

    // MARK: Settings (4.4.8's names, forwarding to `config`)

    /// All the settings at once (5.x's `config`); set it to change several together.
    public var config: SDWebImageDownloaderConfig {
        get { currentSettings }
        set { locked(headersLock) { settings = newValue } }
    }

    /// 4.4.8's settings by their 4.4.8 names — `shouldDecompressImages`, `downloadTimeout`, `executionOrder`,
    /// `urlCredential`, `username`, `password`, `headersFilter` — and the port's `completionQueue`, each read or
    /// written under the one lock (`downloader.downloadTimeout = 3` sets `config.downloadTimeout`).
    public subscript<T>(dynamicMember setting: WritableKeyPath<SDWebImageDownloaderConfig, T>) -> T {
        get { locked(headersLock) { settings[keyPath: setting] } }
        set { locked(headersLock) { settings[keyPath: setting] = newValue } }
    }

    /// How many downloads run at once (the queue's `maxConcurrentOperationCount`; default 6).
    public var maxConcurrentDownloads: Int {
        get { downloadQueue.maxConcurrentOperationCount }
        set { downloadQueue.maxConcurrentOperationCount = newValue }
    }

    /// Operations in the queue, running or waiting.
    public var currentDownloadCount: Int { downloadQueue.operationCount }

    /// The session's configuration (with the downloader's timeout in it).
    public var sessionConfiguration: URLSessionConfiguration { session.configuration }

    /// The protocol cache the session reads and writes (port addition).
    public var urlCache: URLCache? { session.urlCache }

    /// Sets a header sent with every request; nil removes it.
    public func setValue(_ value: String?, forHTTPHeaderField field: String) {
        locked(headersLock) { settings.httpHeaders[field] = value }
    }

    /// The value of one header sent with every request.
    public func value(forHTTPHeaderField field: String) -> String? {
        locked(headersLock) { settings.httpHeaders[field] }
    }

    /// All headers sent with every request.
    public var allHTTPHeaderFields: SDHTTPHeadersDictionary { locked(headersLock) { settings.httpHeaders } }

    /// The class new operations are made of.
    public var operationClass: AnyClass { locked(headersLock) { settings.operationClass } }

    /// Uses `operationClass` for new operations if it is an `Operation` subclass that conforms to
    /// `SDWebImageDownloaderOperationInterface`; anything else (or nil) restores the default (DL-05).
    public func setOperationClass(_ operationClass: AnyClass?) {
        let usable = operationClass as? any (Operation & SDWebImageDownloaderOperationInterface).Type
        locked(headersLock) { settings.operationClass = usable ?? SDWebImageDownloaderOperation.self }
    }

    // MARK: Downloading

    /// Downloads `url`, or joins the operation already downloading it (FAQ-17).
    ///
    /// A nil URL calls `completed(nil, nil, nil, false)` at once and returns nil (DL-06, as 4.4.8; 5.x reports an
    /// InvalidURL error). Progress blocks run off the main queue (the first in the operation's `start`, the rest on
    /// the session's delegate queue), completion blocks on `completionQueue` (main by default, as 4.4.8's default
    /// operation class calls them).
    @discardableResult
    public func downloadImage(
        with url: URL?, options: SDWebImageDownloaderOptions,
        progress: SDWebImageDownloaderProgressBlock?,
        completed: SDWebImageDownloaderCompletedBlock?
    ) -> SDWebImageDownloadToken? {
        guard let url else {
            completed?(nil, nil, nil, false)
            return nil
        }
        let (operation, cancelToken, joined) = locked(operationsLock) {
            () -> (any Operation & SDWebImageDownloaderOperationInterface, Any?, Bool) in
            // A finished or cancelled operation may still be listed for a moment; it cannot be joined, and
            // neither can one that is already calling its completion blocks (addHandlers returns nil).
            if let running = URLOperations[url], !running.isFinished, !running.isCancelled,
                let token = running.addHandlers(forProgress: progress, completed: completed)
            {
                if !running.isExecuting {
                    running.queuePriority =
                        options.contains(.highPriority)
                        ? .high
                        : options.contains(.lowPriority) ? .low : .normal
                }
                return (running, token, true)
            }
            let operation = makeOperation(url: url, options: options)
            let finishedOperation = WeakOperation(operation)
            operation.completionBlock = { [weak self] in
                // The queue calls this on another thread once the operation has finished, never inside a call that
                // holds the lock (4.4.8 relies on the same, `SDWebImageDownloader.m:315`).
                guard let self else { return }
                self.locked(self.operationsLock) {
                    // Only this operation's entry: a newer operation for the URL may have replaced it (4.4.8
                    // removes the key whatever it holds; see chapter 08).
                    if let listed = self.URLOperations[url], listed === finishedOperation.value {
                        self.URLOperations[url] = nil
                    }
                }
            }
            URLOperations[url] = operation
            // Callbacks go in before the operation is queued, so it cannot finish without them.
            let token = operation.addHandlers(forProgress: progress, completed: completed)
            downloadQueue.addOperation(operation)
            return (operation, token, false)
        }
        SDWebImageTrace.record(
            .downloadStart, key: url.absoluteString,
            joined ? "joined the running download" : "new download operation")
        return SDWebImageDownloadToken(url: url, operation: operation, cancelToken: cancelToken)
    }

    /// Builds the request and the operation (`createDownloaderOperationWithUrl:options:`). Called with
    /// `operationsLock` held, as 4.4.8 creates the operation inside its locked create-or-join step
    /// (`SDWebImageDownloader.m:300`).
    private func makeOperation(url: URL, options: SDWebImageDownloaderOptions) -> any Operation
        & SDWebImageDownloaderOperationInterface
    {
        let settings = currentSettings  // one read: every setting of one moment
        let request = Self.makeRequest(url: url, options: options, settings: settings)
        let operation = settings.operationClass.init(request: request, in: session, options: options)
        configure(operation, settings: settings)
        if options.contains(.highPriority) {
            operation.queuePriority = .high
        } else if options.contains(.lowPriority) {
            operation.queuePriority = .low
        }
        if settings.executionOrder == .lifo {
            // LIFO as 4.4.8 emulates it: the previous newest operation waits for this one. (A dependency on an
            // operation that already started would mean nothing, so it is only added to a waiting one.)
            if let last = lastAddedOperation, !last.isExecuting, !last.isFinished {
                last.addDependency(operation)
            }
            lastAddedOperation = operation
        }
        return operation
    }

    /// The request for `url` (`createDownloaderOperationWithUrl:options:`'s first half): the timeout (0 means 15),
    /// the cache policy, cookies, and the headers (filtered per request), all from one `settings` value.
    static func makeRequest(url: URL, options: SDWebImageDownloaderOptions, settings: SDWebImageDownloaderConfig)
        -> URLRequest
    {
        let timeout = settings.downloadTimeout == 0 ? 15 : settings.downloadTimeout
        // The protocol cache is bypassed unless asked for, so images are not cached twice (FAQ-09).
        let cachePolicy: URLRequest.CachePolicy =
            options.contains(.useNSURLCache) ? .useProtocolCachePolicy : .reloadIgnoringLocalCacheData
        var request = URLRequest(url: url, cachePolicy: cachePolicy, timeoutInterval: timeout)
        request.httpShouldHandleCookies = options.contains(.handleCookies)
        // 4.4.8 also sets `HTTPShouldUsePipelining`. libcurl has no HTTP/1.1 pipelining any more (gone in 7.62,
        // as in browsers and NSURLSession) and Foundation deprecates the flag, so the port leaves it unset: the
        // session always reuses connections and multiplexes HTTP/2 streams, which is what it amounts to (DL-07).
        request.allHTTPHeaderFields =
            settings.headersFilter.map { $0(url, settings.httpHeaders) } ?? settings.httpHeaders
        return request
    }

    /// Copies the settings an operation takes from its downloader: decompression, completion queue, credential.
    func configure(
        _ operation: any Operation & SDWebImageDownloaderOperationInterface, settings: SDWebImageDownloaderConfig
    ) {
        operation.shouldDecompressImages = settings.shouldDecompressImages
        (operation as? SDWebImageDownloaderOperation)?.completionQueue = settings.completionQueue
        if let credential = settings.urlCredential {
            operation.credential = credential
        } else if let user = settings.username, let password = settings.password {
            operation.credential = URLCredential(user: user, password: password, persistence: .forSession)
        }
    }

    /// Removes the token's callbacks; when they were the operation's last, the operation is cancelled and
    /// leaves `URLOperations` (DL-11). As 4.4.8, the operation is the one listed for `token.url` now, not the
    /// token's own reference: a token whose download already finished and left the list cancels nothing.
    public func cancel(_ token: SDWebImageDownloadToken?) {
        guard let token, let url = token.url else { return }
        locked(operationsLock) {
            if let operation = URLOperations[url], operation.cancel(token.downloadOperationCancelToken) {
                URLOperations[url] = nil
            }
        }
    }

    /// Suspends or resumes starting queued downloads (running ones continue).
    public func setSuspended(_ suspended: Bool) {
        downloadQueue.isSuspended = suspended
    }

    /// Cancels every queued and running download; their callbacks are dropped, not called.
    public func cancelAllDownloads() {
        downloadQueue.cancelAllOperations()
    }

    /// Invalidates the session: with `cancelPendingOperations`, running transfers are cancelled (their
    /// operations complete with NSURLErrorCancelled); otherwise they finish first. Does nothing on `shared`.
    /// Downloads asked for afterwards fail with "Task can't be initialized" (OP-01).
    public func invalidateSessionAndCancel(_ cancelPendingOperations: Bool) {
        guard self !== SDWebImageDownloader.shared else { return }
        if cancelPendingOperations {
            session.invalidateAndCancel()
        } else {
            session.finishTasksAndInvalidate()
        }
    }

    // MARK: Inspection (port addition, for tests and tools)

    /// Tasks of the current session made and not yet completed (a cancelled task counts until its end arrives).
    public var sessionTaskCount: Int { session.outstandingTaskCount }

    /// How many URLs have an operation in `URLOperations` right now.
    public var runningURLCount: Int { locked(operationsLock) { URLOperations.count } }

    /// The operation downloading `url`, if any.
    public func runningOperation(for url: URL) -> (any Operation & SDWebImageDownloaderOperationInterface)? {
        locked(operationsLock) { URLOperations[url] }
    }

    // MARK: Defaults

    /// "<program>/<SDPort version> (Linux; <OS version>)", ASCII only: the form of 4.4.8's macOS User-Agent
    /// ("<executable>/<app version> (Mac OS X <version>)"). A Linux program has no bundle to give its name and
    /// version, so the process name and the library's version stand in (a deliberate difference, chapter 08).
    static func defaultUserAgent() -> String {
        let info = ProcessInfo.processInfo
        let text = "\(info.processName)/\(SDPortVersion.string) (Linux; \(info.operatingSystemVersionString))"
        return String(text.unicodeScalars.filter { $0.isASCII && $0.value >= 0x20 }.map(Character.init))
    }
}
