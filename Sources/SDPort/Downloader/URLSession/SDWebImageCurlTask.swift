import Foundation

/// One HTTP request run by an `SDWebImageCurlSession`: the port's `NSURLSessionDataTask`.
///
/// The task applies the request's cache policy before it touches the network (NSURLSession does this inside
/// the URL loading system; on Linux the port must):
/// - `reloadIgnoringLocalCacheData` (the downloader's default): always the network;
/// - `useProtocolCachePolicy`: a fresh stored response is served without the network; a stale one with a
///   validator is revalidated (`If-None-Match` / `If-Modified-Since`) and a 304 is answered with the stored
///   body under the stored status (headers refreshed, as NSURLSession does); otherwise the network;
/// - `returnCacheDataElseLoad`: any stored response, else the network; `returnCacheDataDontLoad`: any stored
///   response, else NSURLErrorResourceUnavailable (-1008); `reloadRevalidatingCacheData`: always revalidate.
/// Whatever the policy, a complete 200 that is not `no-store` is proposed to the delegate for storing when the
/// session has a `URLCache` and the body fits it (`SDWebImageHTTPCacheRules.largestStorableBody(in:)`); the task
/// keeps at most that many bytes of a body for the cache, and only while the body can still be proposed.
///
/// Redirects: the task follows them itself rather than letting libcurl do it, so that each hop reaches the
/// delegate's `willPerformHTTPRedirection` first, as NSURLSession's does (DL-16); at most 16 hops, then
/// NSURLErrorHTTPTooManyRedirects. Cookies (`httpShouldHandleCookies`): matching cookies from the
/// configuration's store are sent with each request, and `Set-Cookie` fields of every response (hops included)
/// are stored. HTTP Basic: a 401 asks the delegate for a credential and the request is repeated once per
/// credential given; "cancel" ends the task with NSURLErrorCancelled (see `SDWebImageCurlTaskDelegate`).
///
/// Port addition: NSURLSessionDataTask's role in 4.4.8 (and 5.x); Linux forces it, see `SDWebImageCurlSession`.
///
/// Thread safety: every mutable property is guarded by `lock`; delegate calls run on the session's delegate queue.
public final class SDWebImageCurlTask: @unchecked Sendable {
    /// NSURLSessionTask's priority constants.
    public static let defaultPriority: Float = 0.5
    /// NSURLSessionTask's low priority, used for `lowPriority` downloads.
    public static let lowPriority: Float = 0.25
    /// NSURLSessionTask's high priority, used for `highPriority` downloads.
    public static let highPriority: Float = 0.75

    /// The task's number, unique within its session.
    public let taskIdentifier: Int
    /// The request as the task was made with it.
    public let originalRequest: URLRequest
    private let session: SDWebImageCurlSession

    /// Guards everything below.
    private let lock = NSLock()
    /// The task's own delegate, if it was made with one; else the session's delegate hears of it.
    private var taskDelegate: SDWebImageCurlTaskDelegate?
    /// The object that made the task for itself (a download operation), so the session's delegate can find it
    /// without a search. Weak: the task never keeps its operation alive.
    private weak var _owner: AnyObject?
    private var _state = URLSessionTask.State.suspended
    private var _response: URLResponse?
    private var _priority = SDWebImageCurlTask.defaultPriority
    private var _allowsInvalidServerCertificates = false
    private var _servedFromProtocolCache = false
    private var transfer: SDWebImageCurlTransfer?
    /// The stored response being revalidated, and the refreshed one that answers a 304.
    private var revalidating: CachedURLResponse?
    private var substitute: CachedURLResponse?
    /// A stored response served without the network.
    private var servedFromCache: CachedURLResponse?
    /// The bytes of a `file:` URL, read and waiting for the delegate to allow the response.
    private var fileBody: Data?
    /// The response and body chunks kept for the protocol cache (only for storable responses), their bytes, and the
    /// most the cache takes.
    private var storableResponse: HTTPURLResponse?
    private var bodyChunks: [Data]?
    private var bodyChunkBytes = 0
    private var largestStorableBody = 0
    private var authenticationFailures = 0
    private var redirectCount = 0
    /// The most hops followed before NSURLErrorHTTPTooManyRedirects (NSURLSession's limit is of this order).
    static let maximumRedirects = 16
    private var didComplete = false

    init(identifier: Int, request: URLRequest, session: SDWebImageCurlSession, delegate: SDWebImageCurlTaskDelegate?) {
        taskIdentifier = identifier
        originalRequest = request
        self.session = session
        taskDelegate = delegate
    }

    /// Running, suspended, canceling or completed, as NSURLSessionTask reports it.
    public var state: URLSessionTask.State { lock.withLock { _state } }
    /// The object that made the task for itself, if it said so (a download operation does; see
    /// `SDWebImageDownloader.operation(with:)`).
    public var owner: AnyObject? {
        get { lock.withLock { _owner } }
        set { lock.withLock { _owner = newValue } }
    }
    /// The final response, once received (the stored one when served from the protocol cache).
    public var response: URLResponse? { lock.withLock { _response } }
    /// 0…1, NSURLSessionTask's scale. Mapped onto the HTTP/2 stream weight; HTTP/1.1 has no equivalent.
    public var priority: Float {
        get { lock.withLock { _priority } }
        set { lock.withLock { _priority = min(1, max(0, newValue)) } }
    }
    /// Accept a TLS certificate that does not verify. Set before `resume()`: libcurl checks the certificate
    /// during the handshake, so this is the up-front answer to NSURLSession's server-trust challenge.
    public var allowsInvalidServerCertificates: Bool {
        get { lock.withLock { _allowsInvalidServerCertificates } }
        set { lock.withLock { _allowsInvalidServerCertificates = newValue } }
    }
    /// Whether the response came from the protocol cache (fresh, or revalidated by a 304).
    public var isServedFromProtocolCache: Bool { lock.withLock { _servedFromProtocolCache } }

    // MARK: Starting and cancelling

    /// Starts the task (once; later calls do nothing).
    public func resume() {
        let starts = lock.withLock { () -> Bool in
            guard _state == .suspended, transfer == nil, !didComplete, servedFromCache == nil else { return false }
            _state = .running
            return true
        }
        guard starts else { return }
        let request = originalRequest
        guard request.url != nil else {
            completeAsync(SDWebImageDownloaderError.cannotStart(nil, reason: "the request has no URL"))
            return
        }
        if let url = request.url, url.isFileURL {
            readFile(url)
            return
        }
        let policy = request.cachePolicy
        let readsCache = policy != .reloadIgnoringLocalCacheData && policy != .reloadIgnoringLocalAndRemoteCacheData
        let cached = readsCache ? session.cachedResponse(for: request) : nil
        switch policy {
        case .returnCacheDataDontLoad:
            if let cached {
                serveFromCache(cached)
            } else {
                completeAsync(SDWebImageDownloaderError.notInCache(request.url))
            }
        case .returnCacheDataElseLoad:
            if let cached { serveFromCache(cached) } else { startNetwork(revalidating: nil) }
        case .useProtocolCachePolicy:
            if let cached, SDWebImageHTTPCacheRules.isFresh(cached) {
                serveFromCache(cached)
            } else if let cached, !SDWebImageHTTPCacheRules.validators(for: cached).isEmpty {
                startNetwork(revalidating: cached)
            } else {
                startNetwork(revalidating: nil)
            }
        case .reloadRevalidatingCacheData:
            if let cached, !SDWebImageHTTPCacheRules.validators(for: cached).isEmpty {
                startNetwork(revalidating: cached)
            } else {
                startNetwork(revalidating: nil)
            }
        default:
            startNetwork(revalidating: nil)
        }
    }

    /// Cancels the task: the delegate gets NSURLErrorCancelled (-999) unless the task already completed.
    public func cancel() {
        let (running, completesHere) = lock.withLock { () -> (SDWebImageCurlTransfer?, Bool) in
            guard _state == .running || _state == .suspended else { return (nil, false) }
            _state = .canceling
            return (transfer, transfer == nil)
        }
        let error = SDWebImageDownloaderError.cancelled(originalRequest.url)
        if let running {
            if session.engine?.submit(.cancel(running, error)) != true { completeAsync(error) }
        } else if completesHere {
            completeAsync(error)
        }
    }

    private func startNetwork(revalidating cached: CachedURLResponse?) {
        guard let configuration = transferConfiguration(for: originalRequest, revalidating: cached) else { return }
        launch(SDWebImageCurlTransfer(configuration: configuration, task: self), revalidating: cached)
    }

    /// What libcurl is asked to send for `request`: its headers, the session's extra headers, cookies and, when
    /// revalidating, the validators. Redirects are the task's (libcurl does not follow them).
    private func transferConfiguration(
        for request: URLRequest,
        revalidating cached: CachedURLResponse?
    ) -> SDWebImageCurlTransfer.Configuration? {
        guard let url = request.url else { return nil }
        var headers: [(name: String, value: String)] = []
        func has(_ name: String) -> Bool { headers.contains { $0.name.caseInsensitiveCompare(name) == .orderedSame } }
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            headers.append((name, value))
        }
        for (name, value) in session.configuration.httpAdditionalHeaders ?? [:] {
            if let name = name as? String, let value = value as? String, !has(name) { headers.append((name, value)) }
        }
        if let storage = session.cookieStorage(for: request), !has("Cookie"),
            let cookies = storage.cookies(for: url), !cookies.isEmpty
        {
            for (name, value) in HTTPCookie.requestHeaderFields(with: cookies) { headers.append((name, value)) }
        }
        if let cached {
            for (name, value) in SDWebImageHTTPCacheRules.validators(for: cached) where !has(name) {
                headers.append((name, value))
            }
        }
        let timeout =
            request.timeoutInterval > 0 ? request.timeoutInterval : session.configuration.timeoutIntervalForRequest
        let (priority, allowsInvalid) = lock.withLock { (_priority, _allowsInvalidServerCertificates) }
        return SDWebImageCurlTransfer.Configuration(
            url: url, method: request.httpMethod ?? "GET", headers: headers, idleTimeout: timeout,
            allowsInvalidCertificates: allowsInvalid, priority: priority)
    }

    private func launch(_ newTransfer: SDWebImageCurlTransfer, revalidating cached: CachedURLResponse?) {
        let cancelled = lock.withLock { () -> Bool in
            guard _state == .running else { return true }
            transfer = newTransfer
            revalidating = cached
            return false
        }
        if cancelled {
            completeAsync(SDWebImageDownloaderError.cancelled(originalRequest.url))
        } else if session.engine?.submit(.start(newTransfer)) != true {
            completeAsync(
                SDWebImageDownloaderError.cannotStart(originalRequest.url, reason: "the session was invalidated"))
        }
    }

    /// Reads a `file:` URL as NSURLSession does (DL-17): a response with the file's length and no status, then
    /// its bytes, then the completion; a missing file, a folder or an unreadable file fails with NSURLSession's
    /// code. The protocol cache and cookies do not apply. Read off the delegate queue, like a transfer.
    private func readFile(_ url: URL) {
        DispatchQueue.global(qos: .userInitiated).async {
            let path = url.path
            var isDirectory: ObjCBool = false
            let failure: NSError?
            var body: Data?
            if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                failure = SDWebImageDownloaderError.fileUnreadable(
                    url, code: NSURLErrorFileDoesNotExist, reason: "no such file")
            } else if isDirectory.boolValue {
                failure = SDWebImageDownloaderError.fileUnreadable(
                    url, code: NSURLErrorFileIsDirectory, reason: "it is a folder")
            } else {
                do {
                    body = try Data(contentsOf: url)
                    failure = nil
                } catch {
                    // Gone since the check above, or not readable.
                    let posix = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code
                    let code = posix == Int(ENOENT) ? NSURLErrorFileDoesNotExist : NSURLErrorNoPermissionsToReadFile
                    failure = SDWebImageDownloaderError.fileUnreadable(
                        url, code: code, reason: error.localizedDescription)
                }
            }
            guard let body else {
                self.completeAsync(failure)
                return
            }
            let response = URLResponse(
                url: url, mimeType: Self.mimeType(forPathExtension: url.pathExtension),
                expectedContentLength: body.count, textEncodingName: nil)
            self.lock.withLock { self.fileBody = body }
            self.session.delegateQueue.async { self.deliver(response, from: nil) }
        }
    }

    /// The MIME type NSURLSession reports for a file, from its extension (images; anything else is octet-stream).
    static func mimeType(forPathExtension pathExtension: String) -> String {
        switch pathExtension.lowercased() {
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "tif", "tiff": return "image/tiff"
        default: return "application/octet-stream"
        }
    }

    private func serveFromCache(_ cached: CachedURLResponse) {
        lock.withLock {
            servedFromCache = cached
            _servedFromProtocolCache = true
        }
        session.delegateQueue.async { self.deliver(cached.response, from: nil) }
    }

    // MARK: Events from the transfer (engine thread) → delegate queue

    func transfer(_ source: SDWebImageCurlTransfer, didReceive head: SDWebImageCurlTransfer.ResponseHead) {
        session.delegateQueue.async { self.handleResponse(head, from: source) }
    }

    func transfer(_ source: SDWebImageCurlTransfer, didReceive data: Data) {
        session.delegateQueue.async { self.handleData(data, from: source) }
    }

    func transfer(_ source: SDWebImageCurlTransfer, didCompleteWith error: NSError?) {
        session.delegateQueue.async { self.handleCompletion(error, from: source) }
    }

    /// Whether `source` is still this task's transfer (nil: a response made without the network) and the task has
    /// not completed.
    private func isCurrent(_ source: SDWebImageCurlTransfer?) -> Bool {
        lock.withLock { (source == nil || transfer === source) && !didComplete }
    }

    /// The delegate, if `source` is still this task's transfer and the task has not completed.
    private func currentDelegate(for source: SDWebImageCurlTransfer?) -> SDWebImageCurlTaskDelegate? {
        isCurrent(source) ? delegate : nil
    }

    /// The delegate for a step that waits for its answer; when the task is current but nobody is left to answer
    /// (the session's delegate, held weakly, is gone), the task is cancelled, so it still completes and leaves the
    /// session (a task and its session hold each other until then).
    private func delegateOrCancel(for source: SDWebImageCurlTransfer?) -> SDWebImageCurlTaskDelegate? {
        guard isCurrent(source) else { return nil }
        if let delegate { return delegate }
        cancel()
        return nil
    }

    /// The task's own delegate, else the session's.
    private var delegate: SDWebImageCurlTaskDelegate? {
        lock.withLock { taskDelegate } ?? session.delegate
    }

    private func handleResponse(_ head: SDWebImageCurlTransfer.ResponseHead, from source: SDWebImageCurlTransfer) {
        guard let delegate = delegateOrCancel(for: source) else { return }
        let response = head.response
        if let storage = session.cookieStorage(for: originalRequest), let url = response.url {
            for field in head.fields where field.name.caseInsensitiveCompare("Set-Cookie") == .orderedSame {
                let cookies = HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": field.value], for: url)
                storage.setCookies(cookies, for: url, mainDocumentURL: nil)
            }
        }
        if let next = redirectRequest(for: response, from: source) {
            delegate.curlTask(self, willPerformHTTPRedirection: response, newRequest: next) { chosen in
                if let chosen {
                    self.redirect(source, to: chosen)
                } else {
                    // Not followed: the redirect response is the response, as with NSURLSession.
                    self.session.delegateQueue.async { self.deliver(response, from: source) }
                }
            }
            return
        }
        if response.statusCode == 401 {
            let failures = lock.withLock { authenticationFailures }
            let space = protectionSpace(for: response, head: head)
            delegate.curlTask(self, didReceiveChallengeFor: space, previousFailureCount: failures) {
                disposition, credential in
                if disposition == .useCredential, let user = credential?.user, let password = credential?.password {
                    self.retry(source, user: user, password: password)
                } else if disposition == .cancelAuthenticationChallenge {
                    // NSURLSession ends the task as cancelled; the 401 never reaches didReceiveResponse (OP-07).
                    let error = SDWebImageDownloaderError.challengeCancelled(
                        status: response.statusCode, url: self.originalRequest.url, rejectedCredential: failures > 0)
                    if self.session.engine?.submit(.cancel(source, error)) != true { self.completeAsync(error) }
                } else {
                    self.session.delegateQueue.async { self.deliver(response, from: source) }
                }
            }
            return
        }
        if response.statusCode == 304, let cached = lock.withLock({ revalidating }) {
            let refreshed = SDWebImageHTTPCacheRules.refreshed(cached, with: response)
            session.storeCachedResponse(refreshed, for: originalRequest)
            lock.withLock {
                substitute = refreshed
                _servedFromProtocolCache = true
            }
            deliver(refreshed.response, from: source)
            return
        }
        deliver(response, from: source)
    }

    /// Hands the response to the delegate and acts on its answer. `source` nil: served from the cache or a file.
    private func deliver(_ response: URLResponse, from source: SDWebImageCurlTransfer?) {
        guard let delegate = delegateOrCancel(for: source) else { return }
        let largest = session.urlCache.map(SDWebImageHTTPCacheRules.largestStorableBody(in:))
        lock.withLock {
            _response = response
            if source != nil, substitute == nil, let largest, response.expectedContentLength <= largest,
                let http = response as? HTTPURLResponse,
                SDWebImageHTTPCacheRules.isStorable(http, request: originalRequest)
            {
                storableResponse = http
                bodyChunks = []
                bodyChunkBytes = 0
                largestStorableBody = largest
            }
        }
        delegate.curlTask(self, didReceive: response) { disposition in
            let allowed = disposition == .allow
            if let source, allowed, let parked = source.takeParked() {
                // The whole transfer ended before this answer: what it held is delivered from the delegate queue,
                // in NSURLSession's order (data, then completion), without a trip through the engine thread.
                self.session.delegateQueue.async {
                    if !parked.body.isEmpty { self.handleData(parked.body, from: source) }
                    self.handleCompletion(parked.result, from: source)
                }
            } else if let source {
                // Made only when used: most answers are "allow", and an error builds a userInfo dictionary.
                let cancelled = { SDWebImageDownloaderError.cancelled(self.originalRequest.url) }
                if self.session.engine?.submit(allowed ? .proceed(source) : .cancel(source, cancelled())) != true {
                    self.completeAsync(cancelled())
                }
            } else if allowed {
                self.session.delegateQueue.async { self.deliverCachedBody() }
            } else {
                self.completeAsync(SDWebImageDownloaderError.cancelled(self.originalRequest.url))
            }
        }
    }

    /// The body of a response made without the network: a stored response's, or a file's.
    private func deliverCachedBody() {
        guard let delegate = delegateOrCancel(for: nil) else { return }
        let (stored, file) = lock.withLock { (servedFromCache?.data, fileBody) }
        if let stored {
            delegate.curlTask(self, didReceive: stored)
        } else if let file, !file.isEmpty {  // NSURLSession sends no data for an empty file
            delegate.curlTask(self, didReceive: file)
        }
        complete(nil)
    }

    private func handleData(_ data: Data, from source: SDWebImageCurlTransfer) {
        guard let delegate = currentDelegate(for: source) else { return }
        let forwards = lock.withLock { () -> Bool in
            guard substitute == nil else { return false }  // a 304's body, if any, is not the image
            if bodyChunks != nil {
                bodyChunkBytes += data.count
                if bodyChunkBytes > largestStorableBody {  // a body without a Content-Length that outgrew the cache
                    bodyChunks = nil
                    storableResponse = nil
                } else {
                    bodyChunks!.append(data)
                }
            }
            return true
        }
        if forwards { delegate.curlTask(self, didReceive: data) }
    }

    private func handleCompletion(_ error: NSError?, from source: SDWebImageCurlTransfer) {
        guard isCurrent(source) else { return }
        guard let delegate else {
            complete(error)  // nobody to tell, but the task still ends and leaves its session
            return
        }
        if error == nil, let substitute = lock.withLock({ substitute }) {
            if !substitute.data.isEmpty { delegate.curlTask(self, didReceive: substitute.data) }
            complete(nil)
            return
        }
        let storable = lock.withLock { () -> (HTTPURLResponse, [Data])? in
            guard let response = storableResponse, let chunks = bodyChunks else { return nil }
            storableResponse = nil
            bodyChunks = nil
            return (response, chunks)
        }
        if error == nil, let (response, chunks) = storable {
            // One chunk is the body as it is (Data is copy-on-write); several are joined once.
            let body =
                chunks.count == 1
                ? chunks[0] : chunks.reduce(into: Data(capacity: chunks.reduce(0) { $0 + $1.count })) { $0.append($1) }
            let proposed = CachedURLResponse(response: response, data: body, userInfo: nil, storagePolicy: .allowed)
            delegate.curlTask(self, willCacheResponse: proposed) { chosen in
                if let chosen {
                    self.session.storeCachedResponse(
                        SDWebImageHTTPCacheRules.stamped(chosen), for: self.originalRequest)
                }
                self.session.delegateQueue.async { self.complete(nil) }
            }
            return
        }
        complete(error)
    }

    /// The request a redirect response leads to (its `Location` against the response's URL), or nil when the
    /// response is not a redirect. 303, and 301/302 after a POST, become GET, as browsers and NSURLSession do.
    private func redirectRequest(for response: HTTPURLResponse, from source: SDWebImageCurlTransfer) -> URLRequest? {
        guard [301, 302, 303, 307, 308].contains(response.statusCode),
            let location = response.value(forHTTPHeaderField: "Location"),
            let target = URL(string: location, relativeTo: response.url ?? originalRequest.url)?.absoluteURL,
            target.scheme == "http" || target.scheme == "https"
        else { return nil }
        var request = originalRequest
        request.url = target
        let method = source.configuration.method
        if response.statusCode == 303 || ([301, 302].contains(response.statusCode) && method == "POST") {
            request.httpMethod = "GET"
            request.httpBody = nil
        } else {
            request.httpMethod = method
        }
        return request
    }

    /// Follows a redirect hop with `request` (the one the delegate chose).
    private func redirect(_ source: SDWebImageCurlTransfer, to request: URLRequest) {
        let hops = lock.withLock { () -> Int in
            redirectCount += 1
            return redirectCount
        }
        guard hops <= Self.maximumRedirects else {
            let error = SDWebImageDownloaderError.urlError(
                NSURLErrorHTTPTooManyRedirects,
                "Too many redirects (more than \(Self.maximumRedirects); a redirect loop?) for \(originalRequest.url?.absoluteString ?? "(no URL)")",
                url: originalRequest.url)
            if session.engine?.submit(.cancel(source, error)) != true { completeAsync(error) }
            return
        }
        guard var configuration = transferConfiguration(for: request, revalidating: nil) else {
            // The delegate's request has no URL: end the task rather than leave it waiting.
            let error = SDWebImageDownloaderError.cannotStart(
                originalRequest.url, reason: "the redirect request has no URL")
            if session.engine?.submit(.cancel(source, error)) != true { completeAsync(error) }
            return
        }
        // Credentials given for the first host are not sent to another one.
        if request.url?.host == source.configuration.url.host, request.url?.port == source.configuration.url.port {
            configuration.basicCredentials = source.configuration.basicCredentials
        }
        replace(source, with: SDWebImageCurlTransfer(configuration: configuration, task: self), because: .redirect)
    }

    /// Repeats the request with HTTP Basic credentials after a 401.
    private func retry(_ source: SDWebImageCurlTransfer, user: String, password: String) {
        var configuration = source.configuration
        configuration.basicCredentials = (user, password)
        replace(
            source, with: SDWebImageCurlTransfer(configuration: configuration, task: self), because: .credentialRetry)
    }

    private enum ReplacementReason { case credentialRetry, redirect }

    /// Swaps the running transfer for `replacement` (a retry with credentials, or the next redirect hop).
    private func replace(
        _ source: SDWebImageCurlTransfer, with replacement: SDWebImageCurlTransfer,
        because reason: ReplacementReason
    ) {
        let replaces = lock.withLock { () -> Bool in
            guard transfer === source, _state == .running, !didComplete else { return false }
            switch reason {
            case .credentialRetry: authenticationFailures += 1
            case .redirect: revalidating = nil  // the validators were for the first URL's stored response
            }
            transfer = replacement
            return true
        }
        guard replaces, let engine = session.engine else { return }
        engine.submit(.discard(source))
        if !engine.submit(.start(replacement)) {
            completeAsync(
                SDWebImageDownloaderError.cannotStart(originalRequest.url, reason: "the session was invalidated"))
        }
    }

    private func protectionSpace(for response: HTTPURLResponse, head: SDWebImageCurlTransfer.ResponseHead)
        -> URLProtectionSpace
    {
        let url = response.url ?? originalRequest.url
        let challenge = response.value(forHTTPHeaderField: "WWW-Authenticate") ?? ""
        var realm: String?
        if let range = challenge.range(of: "realm=\"") {
            realm = String(challenge[range.upperBound...].prefix { $0 != "\"" })
        }
        let scheme = url?.scheme ?? "http"
        let method =
            challenge.lowercased().hasPrefix("basic")
            ? NSURLAuthenticationMethodHTTPBasic : NSURLAuthenticationMethodDefault
        return URLProtectionSpace(
            host: url?.host ?? "", port: url?.port ?? (scheme == "https" ? 443 : 80),
            protocol: scheme, realm: realm, authenticationMethod: method)
    }

    // MARK: Completion

    private func completeAsync(_ error: NSError?) {
        session.delegateQueue.async { self.complete(error) }
    }

    /// Reports completion once (delegate queue), then forgets the task delegate and the transfer.
    private func complete(_ error: NSError?) {
        let (completes, receiver) = lock.withLock { () -> (Bool, SDWebImageCurlTaskDelegate?) in
            guard !didComplete else { return (false, nil) }
            didComplete = true
            _state = .completed
            transfer = nil
            bodyChunks = nil
            fileBody = nil
            defer { taskDelegate = nil }
            return (true, taskDelegate)
        }
        guard completes else { return }
        (receiver ?? session.delegate)?.curlTask(self, didCompleteWithError: error)
        session.taskDidComplete(self)
    }
}
