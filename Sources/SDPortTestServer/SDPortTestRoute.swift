import Foundation
import NIOCore

/// What `SDPortTestServer` answers on one path: a value built with a factory (`.data`, `.file`, `.status`,
/// `.redirect`, `.stall`) and refined with builder-style modifiers, each returning a changed copy.
///
/// This is the port's test infrastructure, not a port of an SDWebImage type: the original's tests
/// (`Tests/Tests/SDWebImageDownloaderTests.m` in 4.4.8) download from the real internet. Each option stands
/// for a situation the downloader, the manager and their tests must meet on a real network:
/// - `.data` / `.file` with a content type: an image served normally (DL and OP tests, the manager's flows).
/// - `.status(…)`: 404 / 500 and other failures that must end in one completion with an error.
/// - `.redirect(to:)`: redirect following, and a loop (`/a` → `/b` → `/a`) that must fail with -1007.
/// - `.stall`: a server that accepts and never answers, for the download timeout (-1001) and for cancelling.
/// - `.reset` (an addition to the shared contract): a connection reset instead of an answer (-1005).
/// - `delay(_:)`: a slow server, to keep several downloads in flight (concurrency limits, FIFO/LIFO,
///   coalescing of requests for one URL, cancelling one of several callbacks).
/// - `etag(_:)`, `lastModified(_:)`, `cacheControl(_:)`: the HTTP protocol cache (FAQ-09) — freshness and
///   revalidation with If-None-Match / If-Modified-Since answered by a 304 with an empty body.
/// - `chunked()` / `withoutContentLength()`: an unknown expected size (progress reports -1).
/// - `closeAfter(bytes:)`: a body shorter than its Content-Length (-1005, nothing decoded, nothing cached); with
///   `withoutContentLength()`, a body the server cuts short that HTTP cannot tell from a whole one.
/// - `trickle(chunkSize:interval:)`: data arriving in pieces, for progress and progressive decoding.
/// - `held(by:)`: no answer until a `SDPortTestGate` opens, so several requests are surely in flight at once.
/// - `requireBasicAuth(user:password:)`: the downloader's `username` / `password` / `urlCredential`.
/// - `setCookie(_:)`: `HandleCookies` (cookies stored, then sent back on the next request).
/// - `headers(_:)`: anything else (for example garbage bytes labelled `image/jpeg`).
public struct SDPortTestRoute: Sendable {
    /// Where the body comes from.
    enum Body: Sendable {
        /// Kept as a NIO buffer: every response writes the same storage, without copying the body.
        case data(ByteBuffer)
        /// Read when the request arrives, so a test may change the file between requests; 404 when missing.
        case file(URL)
        /// Accept the request and never answer.
        case stall
        /// Accept the request, then reset the connection (RST) without answering.
        case reset
    }

    /// How the end of the body is marked.
    enum Framing: Sendable {
        case contentLength
        case chunked
        /// No Content-Length, `Connection: close`; the body ends when the server closes the connection.
        case closeDelimited
    }

    var status: Int
    var body: Body
    var contentType: String?
    /// Applied last, so they replace the server's own headers of the same name.
    var extraHeaders: [String: String] = [:]
    var etag: String?
    var lastModified: Date?
    var cacheControl: String?
    var delay: TimeInterval = 0
    var framing: Framing = .contentLength
    var closeAfterBytes: Int?
    var trickleChunkSize: Int?
    var trickleInterval: TimeInterval = 0
    var gate: SDPortTestGate?
    var basicAuth: (user: String, password: String)?
    var cookies: [String] = []

    init(status: Int, body: Body, contentType: String?) {
        self.status = status
        self.body = body
        self.contentType = contentType
    }

    // MARK: Factories

    /// Serves `body` with `contentType` and `status`.
    public static func data(_ body: Data, contentType: String = "application/octet-stream", status: Int = 200) -> Self {
        Self(status: status, body: .data(ByteBuffer(bytes: body)), contentType: contentType)
    }

    /// Serves a file, read at request time (404 when it is missing then). Without a content type, it is
    /// chosen from the extension as `serveDirectory` does.
    public static func file(_ url: URL, contentType: String? = nil) -> Self {
        Self(status: 200, body: .file(url), contentType: contentType ?? contentTypeForFile(url))
    }

    /// Answers `code` with `body` (text/plain when the body is not empty).
    public static func status(_ code: Int, body: Data = Data()) -> Self {
        Self(status: code, body: .data(ByteBuffer(bytes: body)), contentType: body.isEmpty ? nil : "text/plain")
    }

    /// Answers `status` with `Location: location` (a path such as "/b" or a full URL) and an empty body.
    public static func redirect(to location: String, status: Int = 302) -> Self {
        var route = Self(status: status, body: .data(ByteBuffer()), contentType: nil)
        route.extraHeaders["Location"] = location
        return route
    }

    /// Accepts the request and never answers; the connection stays open until the client gives up or the
    /// server stops.
    public static var stall: Self {
        Self(status: 200, body: .stall, contentType: nil)
    }

    /// Accepts the request, then resets the connection (TCP RST, through SO_LINGER 0) without answering
    /// (after `delay`, when set). An addition to the shared contract, for "connection reset" faults; for a
    /// body cut short after its head, use `closeAfter(bytes:)`.
    public static var reset: Self {
        Self(status: 200, body: .reset, contentType: nil)
    }

    // MARK: Modifiers

    /// Adds headers to every answer of this route (they replace the server's own headers of the same name).
    public func headers(_ extra: [String: String]) -> Self {
        var copy = self
        copy.extraHeaders.merge(extra) { _, new in new }
        return copy
    }

    /// Sends `ETag: value`; a request whose If-None-Match lists `value` (or `*`) gets a 304 with no body.
    /// Pass the value with its quotes, e.g. `"\"v1\""`, as it appears on the wire.
    public func etag(_ value: String) -> Self {
        var copy = self
        copy.etag = value
        return copy
    }

    /// Sends `Last-Modified` (whole seconds, HTTP date); a request whose If-Modified-Since is not older gets
    /// a 304 with no body. If-None-Match, when the request and the route both have one, decides instead.
    public func lastModified(_ date: Date) -> Self {
        var copy = self
        copy.lastModified = date
        return copy
    }

    /// Sends `Cache-Control: value` (on the 200 and on the 304).
    public func cacheControl(_ value: String) -> Self {
        var copy = self
        copy.cacheControl = value
        return copy
    }

    /// Waits `seconds` (scheduled on the event loop) before sending the response head.
    public func delay(_ seconds: TimeInterval) -> Self {
        var copy = self
        copy.delay = max(0, seconds)
        return copy
    }

    /// `Transfer-Encoding: chunked` and no Content-Length (HTTP/1.0 clients get a close-delimited body).
    public func chunked() -> Self {
        var copy = self
        copy.framing = .chunked
        return copy
    }

    /// No Content-Length and `Connection: close`: the body ends when the server closes the connection.
    public func withoutContentLength() -> Self {
        var copy = self
        copy.framing = .closeDelimited
        return copy
    }

    /// Declares the full Content-Length, sends only the first `bytes` of the body, then closes the
    /// connection. After `withoutContentLength()` no length is declared, so the client cannot tell the cut body
    /// from a whole one (a truncated image that is not a transport error).
    public func closeAfter(bytes: Int) -> Self {
        var copy = self
        copy.closeAfterBytes = max(0, bytes)
        return copy
    }

    /// Sends the body in pieces of `chunkSize` bytes, `interval` seconds apart (the first piece right after
    /// the head), scheduled on the event loop.
    public func trickle(chunkSize: Int, interval: TimeInterval) -> Self {
        var copy = self
        copy.trickleChunkSize = max(1, chunkSize)
        copy.trickleInterval = max(0, interval)
        return copy
    }

    /// Sends nothing until `gate` opens, then answers as the route says (after its delay, if any).
    public func held(by gate: SDPortTestGate) -> Self {
        var copy = self
        copy.gate = gate
        return copy
    }

    /// Answers 401 with `WWW-Authenticate: Basic realm="SDPortTestServer"` unless the request carries
    /// `Authorization: Basic` with exactly these credentials.
    public func requireBasicAuth(user: String, password: String) -> Self {
        var copy = self
        copy.basicAuth = (user, password)
        return copy
    }

    /// Adds a `Set-Cookie: header` line (call it again for more cookies).
    public func setCookie(_ header: String) -> Self {
        var copy = self
        copy.cookies.append(header)
        return copy
    }
}
