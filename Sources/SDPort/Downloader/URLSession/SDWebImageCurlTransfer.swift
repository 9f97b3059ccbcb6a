import CCurl
import Foundation

/// One libcurl easy handle and what it has received: the network half of an `SDWebImageCurlTask`.
///
/// Created by the task on any thread; from `attach(to:)` on, every method runs on the engine's thread only
/// (libcurl calls the header and write callbacks from inside `curl_multi_perform` on that thread), so the
/// mutable state below needs no lock: it is confined to the engine thread. The one exception is `parked`, behind
/// its own lock.
///
/// A transfer reports three events to its task, in order: the final response head (redirect hops and
/// 1xx blocks are skipped), body chunks, and completion. After the response head it holds the body back
/// until the task says to proceed, because NSURLSession asks its delegate for a response disposition
/// before it delivers any data; a transfer that ends meanwhile parks its body and result, and the task's answer
/// takes them from the delegate queue.
final class SDWebImageCurlTransfer: @unchecked Sendable {
    /// What the task asks libcurl to do. Built once, read-only.
    struct Configuration: Sendable {
        var url: URL
        var method: String = "GET"
        /// Request headers in the order they are sent.
        var headers: [(name: String, value: String)] = []
        /// Seconds without any byte from the server after which the transfer fails with NSURLErrorTimedOut.
        var idleTimeout: TimeInterval = 60
        /// Skip TLS peer and host verification (`AllowInvalidSSLCertificates`).
        var allowsInvalidCertificates = false
        /// HTTP Basic credentials, sent only after the server asked (the task restarts the transfer with them).
        var basicCredentials: (user: String, password: String)?
        /// NSURLSessionTask priority, 0…1; mapped onto the HTTP/2 stream weight.
        var priority: Float = 0.5
    }

    /// A parsed final response head.
    struct ResponseHead: @unchecked Sendable {  // HTTPURLResponse is immutable
        let response: HTTPURLResponse
        let reasonPhrase: String
        /// Header fields as received, duplicates kept (Set-Cookie needs them one by one).
        let fields: [(name: String, value: String)]
    }

    private enum Phase { case headers, awaitingDisposition, streaming, finished }

    let configuration: Configuration
    /// The receiver of the events; nil once the transfer has finished or was discarded.
    private var task: SDWebImageCurlTask?
    private var phase = Phase.headers
    private(set) var easy: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// Whether the easy handle is in the multi handle.
    private(set) var isInMulti = false
    /// Monotonic time of the last byte received (or of the start), for the idle timeout.
    private(set) var lastActivity: UInt64 = 0

    // The header block being parsed.
    private var blockStatus = 0
    private var blockVersion = "HTTP/1.1"
    private var blockReason = ""
    private var blockFields: [(name: String, value: String)] = []

    // The body.
    private var heldBody = Data()
    private(set) var receivedBytes = 0
    /// A transfer that ends while its task has not yet answered the response parks its receiver, body and result
    /// here, so that the task can take them on the delegate queue without a round trip through the engine thread
    /// (over loopback most transfers end before the answer). Written on the engine thread, taken once from either
    /// side; guarded by `parkedLock`.
    private var parked: Parked?
    private let parkedLock = NSLock()
    struct Parked {
        let task: SDWebImageCurlTask
        let body: Data
        let result: NSError?
    }
    private var expectedBytes = 0
    /// The most a body buffer reserves ahead from a Content-Length: the header is the server's word, and a
    /// reservation of what it claims (100 GB, say) is an allocation that fails before one byte has arrived.
    /// Past this the buffer grows as bytes come.
    static let largestBodyReservation = 64 << 20

    init(configuration: Configuration, task: SDWebImageCurlTask) {
        self.configuration = configuration
        self.task = task
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        releaseHandle()
        errorBuffer.deallocate()
    }

    var idleTimeoutNanoseconds: UInt64 { UInt64(max(0.001, configuration.idleTimeout) * 1_000_000_000) }

    // MARK: Engine thread

    /// Creates and configures the easy handle and adds it to `multi`. Returns an error when libcurl refuses.
    func attach(to multi: UnsafeMutableRawPointer, now: UInt64) -> NSError? {
        lastActivity = now
        guard let easy = curl_easy_init() else {
            return SDWebImageDownloaderError.cannotStart(configuration.url, reason: "libcurl could not make a handle")
        }
        self.easy = easy
        let me = Unmanaged.passUnretained(self).toOpaque()
        let config = configuration
        var failed: CURLcode = CURLE_OK
        func set(_ code: CURLcode) { if code != CURLE_OK && failed == CURLE_OK { failed = code } }

        set(sdcurl_easy_setopt_string(easy, CURLOPT_URL, config.url.absoluteString))
        set(sdcurl_easy_setopt_pointer(easy, CURLOPT_PRIVATE, me))
        set(sdcurl_easy_setopt_write_function(easy, CURLOPT_WRITEFUNCTION, sdCurlWriteCallback))
        set(sdcurl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, me))
        set(sdcurl_easy_setopt_write_function(easy, CURLOPT_HEADERFUNCTION, sdCurlHeaderCallback))
        set(sdcurl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, me))
        set(sdcurl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(errorBuffer)))
        set(sdcurl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1))  // several threads use libcurl: no SIGALRM
        // Larger reads than the 16 KB default: fewer write callbacks and queue hops per image.
        set(sdcurl_easy_setopt_long(easy, CURLOPT_BUFFERSIZE, 64 * 1024))
        set(sdcurl_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"))
        set(sdcurl_easy_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"))
        if config.method == "GET" {
            set(sdcurl_easy_setopt_long(easy, CURLOPT_HTTPGET, 1))
        } else if config.method == "HEAD" {
            set(sdcurl_easy_setopt_long(easy, CURLOPT_NOBODY, 1))
        } else {
            set(sdcurl_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, config.method))
        }
        // Redirects are the task's: each hop passes through its delegate first (`SDWebImageCurlTask`, DL-16).
        set(sdcurl_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0))
        // The idle timeout is measured by the engine (libcurl's LOW_SPEED_TIME counts whole seconds);
        // the connect timeout only makes libcurl's own message say "connect" when that is the phase that hung.
        set(sdcurl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(config.idleTimeout * 1000))))
        // Accept whatever compression libcurl can undo, as NSURLSession does.
        set(sdcurl_easy_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, ""))
        set(sdcurl_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, config.allowsInvalidCertificates ? 0 : 1))
        set(sdcurl_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, config.allowsInvalidCertificates ? 0 : 2))
        set(sdcurl_easy_setopt_long(easy, CURLOPT_STREAM_WEIGHT, max(1, min(256, Int(config.priority * 32)))))
        if let credentials = config.basicCredentials {
            let basic = 1  // CURLAUTH_BASIC
            set(sdcurl_easy_setopt_long(easy, CURLOPT_HTTPAUTH, basic))
            set(sdcurl_easy_setopt_string(easy, CURLOPT_USERNAME, credentials.user))
            set(sdcurl_easy_setopt_string(easy, CURLOPT_PASSWORD, credentials.password))
        }
        for header in config.headers {
            // "Name;" is libcurl's way to send a header with an empty value.
            let line = header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)"
            headerList = curl_slist_append(headerList, line)
        }
        if let headerList { set(sdcurl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList)) }
        if failed != CURLE_OK {
            releaseHandle()
            return SDWebImageDownloaderError.cannotStart(
                configuration.url, reason: String(cString: curl_easy_strerror(failed)))
        }
        let added = curl_multi_add_handle(multi, easy)
        guard added == CURLM_OK else {
            releaseHandle()
            return SDWebImageDownloaderError.cannotStart(
                configuration.url, reason: String(cString: curl_multi_strerror(added)))
        }
        isInMulti = true
        return nil
    }

    /// Takes the handle out of `multi` (if it is in it). The handle itself stays until `releaseHandle`.
    func detach(from multi: UnsafeMutableRawPointer) {
        if isInMulti, let easy { curl_multi_remove_handle(multi, easy) }
        isInMulti = false
    }

    /// Frees the easy handle and the header list (the handle must be out of the multi handle).
    private func releaseHandle() {
        if let easy { curl_easy_cleanup(easy) }
        easy = nil
        if let headerList { curl_slist_free_all(headerList) }
        headerList = nil
    }

    /// libcurl's text for the last failure of this handle (empty when none).
    var curlErrorText: String { String(cString: errorBuffer) }

    /// The transfer ended inside libcurl: `code` is its result.
    func ended(with code: CURLcode) {
        if code == CURLE_OK {
            if phase == .headers {
                end(
                    with: SDWebImageDownloaderError.urlError(
                        NSURLErrorBadServerResponse, "No HTTP response from \(configuration.url.absoluteString)",
                        url: configuration.url))
            } else {
                end(with: nil)
            }
        } else {
            end(
                with: SDWebImageDownloaderError.transport(
                    code, detail: curlErrorText, url: configuration.url,
                    received: receivedBytes + heldBody.count,
                    expected: expectedBytes))
        }
    }

    /// The transfer is over with `error` (nil: success). Held back while the task has not answered the response.
    func end(with error: NSError?) {
        switch phase {
        case .finished: return
        case .awaitingDisposition: park(error)
        case .headers, .streaming: finish(error)
        }
    }

    /// The transfer ended before the task answered its response: finished on the engine's side, the rest parked.
    private func park(_ error: NSError?) {
        phase = .finished
        releaseHandle()
        guard let receiver = task else { return }
        task = nil
        let body = heldBody
        heldBody = Data()
        parkedLock.withLock { parked = Parked(task: receiver, body: body, result: error) }
    }

    /// What a transfer that ended before the task's answer parked; nil when nothing is (or is still) parked. Any
    /// thread: whoever takes it delivers it.
    func takeParked() -> Parked? {
        parkedLock.withLock {
            defer { parked = nil }
            return parked
        }
    }

    /// The task accepted the response: deliver what was held back, or what was parked after the task looked.
    func proceed() {
        guard phase == .awaitingDisposition else {
            // Parked after the task looked and found nothing: delivered from here, as it was before parking.
            if let parked = takeParked() {
                receivedBytes += parked.body.count
                if !parked.body.isEmpty { parked.task.transfer(self, didReceive: parked.body) }
                parked.task.transfer(self, didCompleteWith: parked.result)
            }
            return
        }
        phase = .streaming
        if !heldBody.isEmpty {
            let body = heldBody
            heldBody = Data()
            receivedBytes += body.count
            task?.transfer(self, didReceive: body)
        }
    }

    /// Ends the transfer without telling the task (used when the task replaces it).
    func discard() {
        _ = takeParked()
        phase = .finished
        task = nil
        releaseHandle()
    }

    /// Reports completion once and lets go of the handle and the task.
    func finish(_ error: NSError?) {
        guard phase != .finished else {
            // A parked transfer that the task cancels instead of accepting: the cancellation is its result.
            if let parked = takeParked() { parked.task.transfer(self, didCompleteWith: error) }
            return
        }
        phase = .finished
        releaseHandle()
        let receiver = task
        task = nil
        receiver?.transfer(self, didCompleteWith: error)
    }

    var isFinished: Bool { phase == .finished }

    // MARK: libcurl callbacks (engine thread, inside curl_multi_perform)

    fileprivate func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        lastActivity = DispatchTime.now().uptimeNanoseconds
        // Parsed as bytes: Foundation's trimmingCharacters cost more than the rest of the transfer's bookkeeping,
        // and HTTP's optional whitespace is only space and tab (RFC 9110 §5.6.3).
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        let line = bytes[0..<end]
        func text(_ range: Range<Int>) -> String {
            String(decoding: UnsafeRawBufferPointer(rebasing: bytes[Self.trimmed(range, in: bytes)]), as: UTF8.self)
        }
        if line.isEmpty {
            headerBlockEnded()
        } else if line.starts(with: Self.httpPrefix) {
            // "HTTP/1.1 200 OK": version, status, then the reason phrase (which may contain spaces).
            let firstSpace = line.firstIndex(of: 0x20) ?? end
            var statusStart = firstSpace
            while statusStart < end, bytes[statusStart] == 0x20 { statusStart += 1 }
            let statusEnd = line[statusStart...].firstIndex(of: 0x20) ?? end
            blockVersion = text(0..<firstSpace)
            blockStatus = Int(text(statusStart..<statusEnd)) ?? 0
            blockReason = statusEnd < end ? text(statusEnd..<end) : ""
            blockFields = []
        } else if line[0] == 0x20 || line[0] == 0x09, let last = blockFields.popLast() {
            blockFields.append((last.name, last.value + " " + text(0..<end)))
        } else if let colon = line.firstIndex(of: 0x3A) {
            blockFields.append((text(0..<colon), text((colon + 1)..<end)))
        }
    }

    private static let httpPrefix = Array("HTTP/".utf8)

    /// `range` without the spaces and tabs at either end.
    private static func trimmed(_ range: Range<Int>, in bytes: UnsafeRawBufferPointer) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return lower..<upper
    }

    private func headerBlockEnded() {
        // Only the first final response counts; later blocks are trailers of a chunked body.
        guard phase == .headers, blockStatus > 0 else { return }
        if (100..<200).contains(blockStatus) { return }
        var effectiveURL = configuration.url
        if let easy {
            var pointer: UnsafeMutablePointer<CChar>?
            if sdcurl_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &pointer) == CURLE_OK, let pointer,
                let url = URL(string: String(cString: pointer))
            {
                effectiveURL = url
            }
        }
        // Repeated fields are joined under the first spelling of the name (field names are ASCII, RFC 9110 §5.1).
        var joined: [String: String] = [:]
        var spellingByLowercasedName: [String: String] = [:]
        for field in blockFields {
            let lowercased = field.name.lowercased()
            if let existing = spellingByLowercasedName[lowercased] {
                joined[existing] = joined[existing]! + ", " + field.value
            } else {
                spellingByLowercasedName[lowercased] = field.name
                joined[field.name] = field.value
            }
        }
        let response =
            HTTPURLResponse(
                url: effectiveURL, statusCode: blockStatus, httpVersion: blockVersion,
                headerFields: joined)
            ?? HTTPURLResponse(url: effectiveURL, statusCode: blockStatus, httpVersion: nil, headerFields: nil)!
        expectedBytes = max(0, Int(response.expectedContentLength))
        phase = .awaitingDisposition
        task?.transfer(
            self, didReceive: ResponseHead(response: response, reasonPhrase: blockReason, fields: blockFields))
    }

    fileprivate func receiveBody(_ bytes: UnsafeRawBufferPointer) {
        lastActivity = DispatchTime.now().uptimeNanoseconds
        switch phase {
        case .headers, .finished:
            return  // the body of a redirect hop, or bytes after the end
        case .awaitingDisposition:
            // Over loopback most of a body arrives before the task answers: reserve the announced length once
            // rather than let the buffer grow (and be copied) chunk by chunk.
            if heldBody.isEmpty, expectedBytes > bytes.count {
                heldBody.reserveCapacity(min(expectedBytes, Self.largestBodyReservation))
            }
            heldBody.append(contentsOf: bytes)
        case .streaming:
            receivedBytes += bytes.count
            task?.transfer(self, didReceive: Data(bytes))
        }
    }
}

/// libcurl's write callback: body bytes. Returning anything but the count would abort the transfer.
private let sdCurlWriteCallback: curl_write_callback = { pointer, size, count, userData in
    let length = size * count
    guard let pointer, let userData else { return length }
    let transfer = Unmanaged<SDWebImageCurlTransfer>.fromOpaque(userData).takeUnretainedValue()
    transfer.receiveBody(UnsafeRawBufferPointer(start: pointer, count: length))
    return length
}

/// libcurl's header callback: one header line at a time, status lines and the blank line included.
private let sdCurlHeaderCallback: curl_write_callback = { pointer, size, count, userData in
    let length = size * count
    guard let pointer, let userData else { return length }
    let transfer = Unmanaged<SDWebImageCurlTransfer>.fromOpaque(userData).takeUnretainedValue()
    transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: pointer, count: length))
    return length
}
