import Foundation

/// Downloads one URL for any number of callers, then decodes the data into an image.
///
/// Ports `SDWebImageDownloaderOperation` (`SDWebImageDownloaderOperation.m`, 4.4.8): an asynchronous
/// `Operation` whose task (`SDWebImageCurlTask`, the port's NSURLSessionDataTask) reports the response, the
/// data and the completion to it, as NSURLSession's delegate methods do in the original: through the downloader,
/// which is the session's delegate and forwards each callback (DL-18), or directly when the operation made a
/// session of its own.
///
/// - Callbacks are kept per caller (`addHandlers` returns the token `cancel(_:)` takes); a caller's cancel
///   cancels the operation only when no other caller is left (OP-06); the downloader can still cancel it outright.
/// - Progress: (0, -1) and the start notification before the request goes out, (0, expected) on a valid response,
///   (received, expected) per chunk. 4.4.8 calls `resume` first (`SDWebImageDownloaderOperation.m:193-200`), so on
///   a fast response its (0, -1) and "start" race with the response's own progress and notification on the session's
///   queue; the port calls them just before `resume`, so they always come first (a deliberate difference, chapter 08).
/// - Progressive downloads hand chunks to the progressive coder, the last one always (OP-10), and each image it
///   returns arrives as a partial image before the final one. A coder may return none (an animated WebP, which libwebp
///   cannot decode incrementally), and without a Content-Length no chunk is decoded. While a partial decode is queued
///   or running, the chunks between are not decoded (the rule of 5.6.1 and later; 5.0–5.6.0 queue a decode for every
///   chunk when the length is known and `minimumProgressInterval` is its default 0; see `decodePartially`).
/// - The session it is made for is held weakly; when it is gone at `start()` the operation makes its own (DL-19).
/// - A status >= 400, or a 304 with no cached data (which is read at `start()` only with `IgnoreCachedResponse`, so
///   without that option every 304), is answered with "cancel", as 4.4.8 answers
///   `NSURLSessionResponseCancel`: the download ends with `NSURLErrorDomain` / `NSURLErrorCancelled`, which the manager
///   does not blacklist unless its delegate decides otherwise (OP-02, MGR-06). The port adds the status (userInfo
///   `statusCode`, and "HTTP 404" in the description). 4.0–4.2 made the status the error code; 5.x reports
///   `InvalidDownloadStatusCode`.
/// - Completion blocks (partial images too) run on `completionQueue` through `dispatch_queue_async_safe`; it is
///   the main queue by default, which is 4.4.8's `dispatch_main_async_safe` (OP-04). The downloader copies its
///   own `completionQueue` into each operation, so a program without a main run loop can choose another queue.
///   The operation is marked finished *before* its completion blocks run, so a caller that asks for the same
///   URL from inside a completion gets a new download. In 4.4.8 such a caller gets a new download only by timing:
///   its blocks are posted to main before `done` runs, and a caller that gets in between joins the ending
///   operation and is never answered (MUS-05; the chapter 08 row on a request from inside a completion).
/// - The image is scaled from the shared manager's cache key (its `cacheKeyFilter` applies; 4.4.8 scales on iOS,
///   tvOS and watchOS only), as 4.4.8 asks `[SDWebImageManager sharedManager]`; the key comes through
///   `sharedManagerCacheKey`, which the shared manager installs, so this layer names no type above it.
/// - Bytes no coder can decode end with "Downloaded image has 0 pixels" (`SDWebImageErrorDomain`, code 0), as
///   in 4.4.8 where the decoder returns nil; the coder's reason is the error's `NSUnderlyingErrorKey`.
/// - Redirects pass through `curlTask(_:willPerformHTTPRedirection:newRequest:completionHandler:)`, which
///   follows them (4.4.8's downloader forwards the session's redirect callback to operations that implement it;
///   its own operation does not, so the session follows). Subclasses override it to stop or rewrite a hop (DL-16).
/// - `ContinueInBackground` is accepted and does nothing: Linux has no background tasks to ask for (OP-09).
/// - Cancelled before its final completion, it drops every callback without calling it, as 4.4.8 does (OP-05).
///   The 5.x loader registers `whenCancelledBeforeCompletion` and answers its own callers with
///   `SDWebImageErrorCancelled`, as 5.21.5's operation answers every caller (V5-12).
///
/// Thread safety: `lifecycleLock` (recursive, as `@synchronized(self)` is) orders start, cancel and finish;
/// `stateLock` guards the download's state; the settings the downloader copies in are one value behind their own
/// lock (`settings`). KVO notifications are sent without `stateLock` held.
/// At tag 4.4.8: `SDWebImage/SDWebImageDownloaderOperation.m:127` (`-start`), `SDWebImage/SDWebImageDownloaderOperation.m:383` (`-URLSession:task:didCompleteWithError:`).
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageDownloaderOperation.m:430` (`-URLSession:dataTask:didReceiveResponse:completionHandler:`), `SDWebImage/Core/SDWebImageDownloaderOperation.m:272` (`-cancelInternal`).
open class SDWebImageDownloaderOperation: Operation, SDWebImageDownloaderOperationInterface,
    SDWebImageCurlTaskDelegate, @unchecked Sendable
{
    /// One caller's callbacks; its identity is the caller's token.
    private final class CallbackEntry: Sendable {
        let progress: SDWebImageDownloaderProgressBlock?
        let completed: SDWebImageDownloaderCompletedBlock?
        init(progress: SDWebImageDownloaderProgressBlock?, completed: SDWebImageDownloaderCompletedBlock?) {
            self.progress = progress
            self.completed = completed
        }
    }

    /// The request this operation sends.
    public let request: URLRequest?
    /// The downloader options the operation was made with.
    public let options: SDWebImageDownloaderOptions

    /// The session it was made for, held weakly as 4.4.8 holds it: whoever injected it owns it. When it is gone
    /// by `start()`, the operation makes a session of its own (`ownedSession`), as 4.4.8 does (DL-19).
    private weak let unownedSession: SDWebImageCurlSession?
    private let lifecycleLock = NSRecursiveLock()
    private let stateLock = NSLock()
    /// Decodes (progressive and final) off the delegate queue, one at a time and in order.
    private let coderQueue = DispatchQueue(label: "com.hackemist.SDWebImageDownloaderOperationCoderQueue")

    /// The cache key 4.4.8 scales downloaded images with (on iOS, tvOS and watchOS; on macOS it does not scale):
    /// `[[SDWebImageManager sharedManager] cacheKeyForURL:]`.
    /// The shared manager installs its `cacheKey(for:)` here when it is made; before that (no shared manager, so
    /// no filter) the key is the absolute string, which is what the shared manager would answer.
    public static var sharedManagerCacheKey: (@Sendable (URL?) -> String?)? {
        get { sharedManagerCacheKeyBox.wrappedValue }
        set { sharedManagerCacheKeyBox.wrappedValue = newValue }
    }
    /// Guards `sharedManagerCacheKey` (its own lock).
    private static let sharedManagerCacheKeyBox = SDLocked<(@Sendable (URL?) -> String?)?>(wrappedValue: nil)

    /// Decompression, completion queue and credential: set by the downloader, one lock of their own.
    private let settings = SDLocked(wrappedValue: SDWebImageDownloaderOperationSettings())

    // Guarded by stateLock.
    private var _executing = false
    private var _finished = false
    private var _isFinishing = false
    private var callbackEntries: [CallbackEntry] = []
    private var _dataTask: SDWebImageCurlTask?
    private var ownedSession: SDWebImageCurlSession?
    private var _expectedSize = 0
    private var _response: URLResponse?
    /// The body: one chunk that held all of it as it came, or the chunks appended in `bodyBuffer`.
    private var imageData: Data?
    private var bodyBuffer: SDWebImageDownloadBuffer?
    private var cachedData: Data?
    private var statusError: NSError?
    private var progressiveCoder: (any SDWebImageProgressiveCoder)?
    /// A partial decode is queued or running: chunks arriving meanwhile are not decoded (5.6.1's rule).
    private var partialDecodePending = false
    /// The task has ended: a partial decode of a chunk before the last that has not started yet is skipped.
    private var downloadCompleted = false
    /// The final completion blocks have started to run (on the completion queue): no partial image after them.
    private var finalCompletionDelivered = false
    /// Told once when the operation is cancelled before its final completion took the callbacks: the 5.x loader's
    /// callers, which 5.x (5.1.0 on) answers with `SDWebImageErrorCancelled` (V5-12). 4.4.8's callers are never
    /// told (OP-05).
    private var cancelObservers: [@Sendable () -> Void] = []
    /// The operation was cancelled before its final completion, and its callbacks were dropped.
    private var droppedByCancel = false

    /// An operation for `request`, run as a task of `transport`.
    public required init(
        request: URLRequest?, in transport: SDWebImageCurlSession?, options: SDWebImageDownloaderOptions
    ) {
        self.request = request
        self.unownedSession = transport
        self.options = options
        super.init()
    }

    /// An operation with no request; it fails when started.
    public convenience override init() {
        self.init(request: nil, in: nil, options: [])
    }

    // MARK: Properties

    /// Always true: the operation finishes when its transfer does, not when `start()` returns.
    open override var isAsynchronous: Bool { true }
    /// Whether the transfer has started and not finished.
    open override var isExecuting: Bool { stateLock.withLock { _executing } }
    /// Whether the operation is done (completed, failed or cancelled).
    open override var isFinished: Bool { stateLock.withLock { _finished } }

    public var dataTask: SDWebImageCurlTask? { stateLock.withLock { _dataTask } }

    /// Force-decode downloaded images (the downloader copies its own setting here). Default true.
    public var shouldDecompressImages: Bool {
        get { settings[\.shouldDecompressImages] }
        set { settings[\.shouldDecompressImages] = newValue }
    }

    /// Where completion blocks run (`dispatch_queue_async_safe`); the main queue by default, as 4.4.8's
    /// `dispatch_main_async_safe`. The downloader sets it from its own `completionQueue`.
    public var completionQueue: DispatchQueue {
        get { settings[\.completionQueue] }
        set { settings[\.completionQueue] = newValue }
    }

    /// The credential answered to an HTTP authentication challenge (once; OP-07).
    public var credential: URLCredential? {
        get { settings[\.credential] }
        set { settings[\.credential] = newValue }
    }

    /// The expected body size from the response (0 when unknown).
    public var expectedSize: Int {
        get { stateLock.withLock { _expectedSize } }
        set { stateLock.withLock { _expectedSize = newValue } }
    }

    /// The response, once received.
    public var response: URLResponse? {
        get { stateLock.withLock { _response } }
        set { stateLock.withLock { _response = newValue } }
    }

    // MARK: Callbacks

    public func addHandlers(
        forProgress progressBlock: SDWebImageDownloaderProgressBlock?,
        completed completedBlock: SDWebImageDownloaderCompletedBlock?
    ) -> Any? {
        let entry = CallbackEntry(progress: progressBlock, completed: completedBlock)
        return stateLock.withLock { () -> Any? in
            guard !_isFinishing, !_finished else { return nil }
            callbackEntries.append(entry)
            return entry
        }
    }

    public func cancel(_ token: Any?) -> Bool {
        let noneLeft = stateLock.withLock { () -> Bool in
            if let entry = token as? CallbackEntry { callbackEntries.removeAll { $0 === entry } }
            return callbackEntries.isEmpty
        }
        if noneLeft { cancel() }
        return noneLeft
    }

    private var progressBlocks: [SDWebImageDownloaderProgressBlock] {
        stateLock.withLock { callbackEntries.compactMap(\.progress) }
    }

    private var hasCompletedBlocks: Bool {
        stateLock.withLock { callbackEntries.contains { $0.completed != nil } }
    }

    /// Calls `observer` once if the operation is cancelled before its final completion (`cancel()`, the queue's
    /// `cancelAllOperations`), at once if it already was; never if the final completion comes (or came) first.
    /// The 5.x loader answers its callers through this (V5-12): 5.21.5's `cancelInternal` calls every callback
    /// with `SDWebImageErrorCancelled`, where 4.4.8's `cancelInternal` drops them.
    func whenCancelledBeforeCompletion(_ observer: @escaping @Sendable () -> Void) {
        let runNow: Bool = stateLock.withLock {
            if droppedByCancel { return true }
            if !_isFinishing && !_finished { cancelObservers.append(observer) }
            return false
        }
        if runNow { observer() }
    }

    // MARK: Lifecycle

    /// Starts the transfer, or finishes at once when the operation was cancelled first.
    open override func start() {
        SDWebImageTrace.mark(.operationStart, key: request?.url?.absoluteString, "on the download queue")
        lifecycleLock.lock()
        if isCancelled {
            setFinished(true)
            reset()
            lifecycleLock.unlock()
            return
        }
        let session: SDWebImageCurlSession
        if let unownedSession {
            session = unownedSession
        } else {
            // As in the original: without an injected session (none given, or it was released since), make one
            // with a 15 s timeout and own it.
            let configuration = URLSessionConfiguration.default
            configuration.timeoutIntervalForRequest = 15
            session = SDWebImageCurlSession(configuration: configuration, delegate: self)
            stateLock.withLock { ownedSession = session }
        }
        if options.contains(.ignoreCachedResponse), let request {
            // Kept to recognise a response the protocol cache answered (OP-04).
            let cached = session.cachedResponse(for: request)?.data
            stateLock.withLock { cachedData = cached }
        }
        let task = request.flatMap { session.dataTask(with: $0) }
        task?.owner = self  // the downloader finds the operation of a task callback without searching its queue
        stateLock.withLock { _dataTask = task }
        setExecuting(true)
        lifecycleLock.unlock()

        guard let task else {
            let reason = request == nil ? "the operation has no request" : "the downloader's session was invalidated"
            complete(
                image: nil, data: nil,
                error: SDWebImageDownloaderError.taskCannotBeInitialized(request?.url, reason: reason))
            return
        }
        if options.contains(.highPriority) {
            task.priority = SDWebImageCurlTask.highPriority
        } else if options.contains(.lowPriority) {
            task.priority = SDWebImageCurlTask.lowPriority
        }
        // OP-07, server trust: libcurl checks the certificate in the handshake, so the answer is given now.
        task.allowsInvalidServerCertificates = options.contains(.allowInvalidSSLCertificates)
        let unknownLength = -1  // NSURLResponseUnknownLength
        for progress in progressBlocks { progress(0, unknownLength, request?.url) }
        post(SDWebImageDownloadStartNotification)
        task.resume()
    }

    /// Cancels the download (idempotent): stops the task, posts the stop notification, finishes, and drops
    /// every callback without calling it (OP-05).
    open override func cancel() {
        SDWebImageTrace.mark(
            .operationCancel, key: request?.url?.absoluteString, isFinished ? "already finished" : "stops the task")
        lifecycleLock.withLock {
            guard !isFinished else { return }
            super.cancel()
            if let task = dataTask {
                task.cancel()
                post(SDWebImageDownloadStopNotification)
                if isExecuting { setExecuting(false) }
                if !isFinished { setFinished(true) }
            }
            reset()
        }
    }

    /// Whether the downloader should forward `task`'s callbacks here: unfinished and still this task's operation.
    /// Asked under `lifecycleLock`, so a cancel in progress on another thread (which has already stopped the task,
    /// whose end may arrive at once) is seen whole: its task's late end then goes nowhere and "stop" stays posted
    /// once (DL-18).
    func takesCallbacks(of task: SDWebImageCurlTask) -> Bool {
        lifecycleLock.withLock { !isFinished && dataTask === task }
    }

    private func done() {
        lifecycleLock.withLock {
            if isExecuting { setExecuting(false) }
            if !isFinished { setFinished(true) }
            reset()
        }
    }

    /// Drops the callbacks and the task; also the downloaded bytes and the progressive coder, which a finished
    /// operation no longer needs (the final decode and the completion took what they use before this runs), so
    /// an operation something still holds after it finished or was cancelled keeps no buffer alive.
    private func reset() {
        let cancelled = isCancelled
        let (session, observers) = stateLock.withLock { () -> (SDWebImageCurlSession?, [@Sendable () -> Void]) in
            callbackEntries.removeAll()
            _dataTask = nil
            imageData = nil
            bodyBuffer = nil
            cachedData = nil
            progressiveCoder = nil
            // Cancelled before the final completion took the callbacks: they were dropped, which the 5.x callers
            // are told of (`whenCancelledBeforeCompletion`).
            let dropped = cancelled && !_isFinishing
            if dropped { droppedByCancel = true }
            defer {
                ownedSession = nil
                cancelObservers = []
            }
            return (ownedSession, dropped ? cancelObservers : [])
        }
        session?.invalidateAndCancel()
        for observer in observers { observer() }
    }

    // Linux's Operation learns of state changes only through these KVO calls; without them the queue never
    // frees the slot. They are sent with stateLock released, because observers read the properties.
    private func setFinished(_ value: Bool) {
        willChangeValue(forKey: "isFinished")
        stateLock.withLock { _finished = value }
        didChangeValue(forKey: "isFinished")
    }

    private func setExecuting(_ value: Bool) {
        willChangeValue(forKey: "isExecuting")
        stateLock.withLock { _executing = value }
        didChangeValue(forKey: "isExecuting")
    }

    // MARK: Completion

    /// The final completion: takes the callbacks (no caller can join from now on), finishes, then calls them.
    private func complete(image: UIImage?, data: Data?, error: Error?) {
        let blocks = stateLock.withLock { () -> [SDWebImageDownloaderCompletedBlock] in
            _isFinishing = true
            return callbackEntries.compactMap(\.completed)
        }
        let queue = completionQueue
        done()
        guard !blocks.isEmpty else { return }
        dispatch_queue_async_safe(queue) {
            self.stateLock.withLock { self.finalCompletionDelivered = true }
            for block in blocks { block(image, data, error, true) }
        }
    }

    /// A partial image of a progressive download; dropped once the operation is finishing.
    private func deliverPartial(_ image: UIImage) {
        let blocks = stateLock.withLock { _isFinishing ? [] : callbackEntries.compactMap(\.completed) }
        let queue = completionQueue
        guard !blocks.isEmpty else { return }
        dispatch_queue_async_safe(queue) {
            // A final completion that does not come from the coder queue (an error) may have run between the check
            // above and this block: a partial image must never arrive after it. One queued after this block (the
            // final decode follows on the same serial coder queue) runs after it.
            guard !self.stateLock.withLock({ self.finalCompletionDelivered }) else { return }
            for block in blocks { block(image, nil, nil, false) }
        }
    }

    private func post(_ names: Notification.Name...) {
        post(names)
    }

    private func post(_ names: [Notification.Name]) {
        DispatchQueue.main.async {
            for name in names { NotificationCenter.default.post(name: name, object: self) }
        }
    }

    // MARK: SDWebImageCurlTaskDelegate (the session's delegate queue)

    open func curlTask(
        _ task: SDWebImageCurlTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let expected = max(0, Int(response.expectedContentLength))
        let status = (response as? HTTPURLResponse)?.statusCode ?? 200
        let url = request?.url
        let valid = stateLock.withLock { () -> Bool in
            _expectedSize = expected
            _response = response
            // A 304 is only usable when there is stored data to stand for it.
            let valid = status < 400 && !(status == 304 && cachedData == nil)
            // The task will end with a bare NSURLErrorCancelled; this one says which status caused it.
            if !valid {
                statusError = SDWebImageDownloaderError.responseCancelled(status: status, reason: nil, url: url)
            }
            return valid
        }
        if valid {
            for progress in progressBlocks { progress(0, expected, url) }
        }
        post(SDWebImageDownloadReceiveResponseNotification)
        completionHandler(valid ? .allow : .cancel)
    }

    open func curlTask(_ task: SDWebImageCurlTask, didReceive data: Data) {
        // Every chunk of a progressive download, the last one too (`finished`), goes to `decodePartially` when the
        // length is known (`expected > 0`, which says which chunk is the last), as 4.4.8 queues a decode for each
        // (`SDWebImageDownloaderOperation.m:322-357`); `decodePartially` then skips chunks by 5.6.1's rule.
        let progressive = options.contains(.progressiveDownload)
        let (received, expected, snapshot) = stateLock.withLock { () -> (Int, Int, Data?) in
            let expected = _expectedSize
            if imageData == nil, bodyBuffer == nil, data.count >= expected {
                imageData = data  // the whole body in one chunk: keep it, no copy (Data is copy-on-write)
                return (data.count, expected, data)
            }
            if bodyBuffer == nil {
                // 4.4.8 reserves the whole Content-Length (`SDWebImageDownloaderOperation.m:318`); here the
                // reservation is capped, since Linux cannot reserve a lying header's 100 GB (a crash).
                let held = imageData?.count ?? 0
                let reservation = min(expected, SDWebImageCurlTransfer.largestBodyReservation)
                bodyBuffer = SDWebImageDownloadBuffer(capacity: max(reservation, held + data.count))
                if let first = imageData { bodyBuffer!.append(first) }
                imageData = nil
            }
            bodyBuffer!.append(data)
            // Shares the bytes: a partial decode that keeps them costs no copy when the next chunk arrives.
            return (bodyBuffer!.count, expected, progressive && expected > 0 ? bodyBuffer!.snapshot() : nil)
        }
        let url = request?.url
        if let snapshot, progressive, expected > 0 {
            decodePartially(snapshot, finished: received >= expected)
        }
        for progress in progressBlocks { progress(received, expected, url) }
    }

    open func curlTask(
        _ task: SDWebImageCurlTask, willCacheResponse proposedResponse: CachedURLResponse,
        completionHandler: @escaping @Sendable (CachedURLResponse?) -> Void
    ) {
        // OP-08: only `UseNSURLCache` lets the protocol cache keep the response.
        completionHandler(options.contains(.useNSURLCache) ? proposedResponse : nil)
    }

    /// A redirect hop (DL-16): follows it, as 4.4.8 does (its operation has no redirect callback, so the downloader,
    /// or for an operation with a session of its own the session's default, lets the hop through).
    /// Override to stop it (`completionHandler(nil)`: the redirect response itself becomes the response) or to
    /// send another request.
    open func curlTask(
        _ task: SDWebImageCurlTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(request)
    }

    open func curlTask(
        _ task: SDWebImageCurlTask, didReceiveChallengeFor protectionSpace: URLProtectionSpace,
        previousFailureCount: Int,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        // OP-07: the credential is tried once; a second challenge means it was rejected.
        if previousFailureCount == 0, let credential {
            completionHandler(.useCredential, credential)
        } else {
            completionHandler(.cancelAuthenticationChallenge, nil)
        }
    }

    open func curlTask(_ task: SDWebImageCurlTask, didCompleteWithError error: Error?) {
        stateLock.withLock {
            _dataTask = nil
            downloadCompleted = true
        }
        // Reached for a cancelled operation only when it is its own session's delegate (`ownedSession`): through the
        // downloader, `reset()` dropped the task, so the downloader finds no operation for it (DL-18). Its callbacks
        // are gone; 4.4.8 posts "stop" a second time here when the operation owns its session, because the
        // cancelled task still reports its end to it.
        guard !isCancelled else {
            post(SDWebImageDownloadStopNotification)
            done()
            return
        }
        // One main-queue block for both, as in the original: an observer of "stop" can already tell whether
        // "finish" follows.
        let names =
            error == nil
            ? [SDWebImageDownloadStopNotification, SDWebImageDownloadFinishNotification]
            : [SDWebImageDownloadStopNotification]
        post(names)

        let url = request?.url
        let (status, data, ignoredData) = stateLock.withLock { () -> (Int?, Data?, Data?) in
            defer {
                imageData = nil
                bodyBuffer = nil
            }
            return ((_response as? HTTPURLResponse)?.statusCode, imageData ?? bodyBuffer?.snapshot(), cachedData)
        }
        var failure = error
        if let statusError = stateLock.withLock({ statusError }),
            error == nil || (error as NSError?)?.code == NSURLErrorCancelled
        {
            failure = statusError
        }
        SDWebImageTrace.record(
            .downloadResponse, key: url?.absoluteString,
            failure.map { "failed: \($0.localizedDescription)" }
                ?? "\(status.map(String.init) ?? "-"), \(data?.count ?? 0) bytes")
        if let failure {
            complete(image: nil, data: nil, error: failure)
            return
        }
        guard hasCompletedBlocks else {
            done()
            return
        }
        guard let data else {
            complete(image: nil, data: nil, error: SDWebImageDownloaderError.imageError("Image data is nil"))
            return
        }
        if options.contains(.ignoreCachedResponse), let ignoredData, ignoredData == data {
            // The protocol cache answered with what the caller already has (OP-04, FAQ-09).
            complete(image: nil, data: nil, error: nil)
            return
        }
        coderQueue.async { self.decodeFinally(data) }
    }

    // MARK: Decoding (coder queue)

    /// The key images are scaled with (@2x, @3x): the shared manager's cache key, as in 4.4.8 (OP-04), which
    /// scales on iOS, tvOS and watchOS only.
    private func scaleKey(for url: URL?) -> String? {
        if let sharedKey = Self.sharedManagerCacheKey { return sharedKey(url) }
        return url?.absoluteString
    }

    /// Decodes the data so far into a partial image. 4.4.8 queues one decode per chunk (of known total length), each
    /// with its own copy of the data so far and, while `shouldDecompressImages` is on (not on macOS), each redrawn
    /// into a full-size bitmap, so chunks arriving faster than they decode pile up copies and work (5.6.1 fixed it).
    /// The port follows 5.x for the chunks before the last: at most one partial decode in flight (5.6.1 on;
    /// `SDWebImage/Core/SDWebImageDownloaderOperation.m:558` at tag 5.21.5), so while one is queued or running the
    /// others only add to the data; and one that has not started when the task ends is skipped (5.15.1 on). The last
    /// chunk (`finished`) is always decoded and, when the coder returns an image, delivered as a partial image before
    /// the final one, as 4.4.8 does (OP-10; 5.21.5 skips it).
    /// When chunks outpace decoding, fewer partial images arrive than in
    /// 4.4.8; each shows all the data decoded at its time, and the final image is unchanged.
    private func decodePartially(_ data: Data, finished: Bool) {
        let coder = stateLock.withLock { () -> (any SDWebImageProgressiveCoder)? in
            guard finished || (!partialDecodePending && !downloadCompleted) else { return nil }
            if progressiveCoder == nil {
                // A fresh instance per download: a progressive coder keeps the state of one image.
                for coder in SDWebImageCodersManager.shared.coders {
                    if let progressive = coder as? any SDWebImageProgressiveCoder,
                        progressive.canIncrementallyDecode(from: data)
                    {
                        progressiveCoder = type(of: progressive).init()
                        break
                    }
                }
            }
            if progressiveCoder != nil { partialDecodePending = true }
            return progressiveCoder
        }
        guard let coder else { return }
        let key = scaleKey(for: request?.url)
        let decompress = shouldDecompressImages
        coderQueue.async {
            let skip = self.stateLock.withLock { () -> Bool in
                if self._isFinishing || (!finished && self.downloadCompleted) {
                    self.partialDecodePending = false
                    return true
                }
                return false
            }
            if skip { return }
            defer { self.stateLock.withLock { self.partialDecodePending = false } }
            guard var image = coder.incrementallyDecodedImage(with: data, finished: finished) else { return }
            image = SDScaledImageForKey(key, image) ?? image
            if decompress {
                var imageData: Data? = data
                image =
                    SDWebImageCodersManager.shared.decompressedImage(
                        with: image, data: &imageData, options: [SDWebImageCoderScaleDownLargeImagesKey: false])
                    ?? image
            }
            // Partial images are for display only; the final image is decoded again from all the data.
            self.deliverPartial(image)
        }
    }

    /// Decodes the whole download and ends the operation with the result.
    private func decodeFinally(_ data: Data) {
        // Timed only when the trace has listeners: the step then covers the decode and the force-decode.
        let (image, imageData, error) = decodedResult(data, since: SDWebImageTrace.stepStart())
        complete(image: image, data: imageData, error: error)
    }

    /// The image of the whole download, force-decoded (and scaled down when asked), or the error that ends it.
    private func decodedResult(_ data: Data, since start: Date?) -> (UIImage?, Data?, Error?) {
        let url = request?.url
        let key = scaleKey(for: url)
        var image: UIImage
        if options.contains(.scaleDownLargeImages) && shouldDecompressImages {
            let coders = SDWebImageCodersManager.shared
            if let scaled = coders.decodedAndScaledDownImage(from: data) {
                let image = SDScaledImageForKey(key, scaled) ?? scaled
                SDWebImageTrace.record(
                    .decode, key: url?.absoluteString, since: start,
                    "jpeg \(image.pixelWidth)×\(image.pixelHeight), scaled down while decoding")
                // The disk keeps the smaller image, as after any scale-down.
                return (image, coders.encodedData(with: scaled, format: .jpeg) ?? data, nil)
            }
        }
        do {
            image = try SDWebImageCodersManager.shared.decodeImage(from: data)
        } catch {
            // 4.4.8's decoder answers nil here, and a nil image has 0 pixels.
            let reason = SDWebImageDownloaderError.undecodable(error, url: url, byteCount: data.count)
            SDWebImageTrace.record(
                .decode, key: url?.absoluteString, since: start, "failed: 0 pixels (\(reason.localizedDescription))")
            return (nil, nil, SDWebImageDownloaderError.zeroPixels(underlying: reason))
        }
        image = SDScaledImageForKey(key, image) ?? image
        var imageData: Data? = data
        // Animated images are not force-decoded: that would flatten them to one frame (FAQ-13).
        let isAnimated = image.images != nil || image.sd_imageFormat == .gif
        if !isAnimated && shouldDecompressImages {
            let scaleDown = options.contains(.scaleDownLargeImages)
            image =
                SDWebImageCodersManager.shared.decompressedImage(
                    with: image, data: &imageData, options: [SDWebImageCoderScaleDownLargeImagesKey: scaleDown])
                ?? image
        }
        if image.size.width == 0 || image.size.height == 0 {
            SDWebImageTrace.record(.decode, key: url?.absoluteString, since: start, "failed: 0 pixels")
            return (nil, nil, SDWebImageDownloaderError.zeroPixels(underlying: nil))
        }
        SDWebImageTrace.record(
            .decode, key: url?.absoluteString, since: start,
            "\(image.sd_imageFormat.fileExtension ?? "image") \(image.pixelWidth)×\(image.pixelHeight)")
        return (image, imageData, nil)
    }
}
