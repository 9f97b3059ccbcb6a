import Foundation
import NIOCore
import NIOHTTP1

/// What the server sends for one request, worked out from the route and the request when the request has
/// fully arrived: the head, the body pieces, and how the response ends. Port test infrastructure.
struct SDPortTestResponsePlan {
    /// How the response ends after its last body piece.
    enum Ending {
        /// Write the end of the message; keep the connection when the client asked for keep-alive.
        case endMessage(keepAlive: Bool)
        /// Write the end of the message, then close (close-delimited bodies, HTTP/1.0 without keep-alive).
        case endMessageThenClose
        /// Close right after the last piece, without ending the message (a truncated body).
        case closeConnection
    }

    var stall = false
    /// Reset the connection instead of answering (after `delay`).
    var reset = false
    var delay: TimeInterval = 0
    /// Nothing is sent before this gate opens (`SDPortTestRoute.held(by:)`).
    var gate: SDPortTestGate?
    var head: HTTPResponseHead
    /// Slices of the route's buffer: writing them copies nothing.
    var pieces: [ByteBuffer] = []
    var interval: TimeInterval = 0
    var ending: Ending

    /// The plan for `request` answered by `route` (nil route: 404).
    init(route: SDPortTestRoute?, request: HTTPRequestHead) {
        let keepAlive = request.isKeepAlive
        var plan = Self(
            status: 404, body: ByteBuffer(string: "Not Found"), contentType: "text/plain",
            request: request, keepAlive: keepAlive)
        if let route {
            plan = Self.build(route: route, request: request, keepAlive: keepAlive)
            plan.gate = route.gate
        }
        self = plan
    }

    /// A plain response with a Content-Length.
    private init(status: Int, body: ByteBuffer, contentType: String?, request: HTTPRequestHead, keepAlive: Bool) {
        var headers = HTTPHeaders()
        if let contentType { headers.add(name: "Content-Type", value: contentType) }
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        head = HTTPResponseHead(
            version: request.version, status: HTTPResponseStatus(statusCode: status),
            headers: headers)
        pieces = request.method == .HEAD || body.readableBytes == 0 ? [] : [body]
        ending = .endMessage(keepAlive: keepAlive)
    }

    private static func build(route: SDPortTestRoute, request: HTTPRequestHead, keepAlive: Bool) -> Self {
        if case .stall = route.body {
            var plan = Self(status: 200, body: ByteBuffer(), contentType: nil, request: request, keepAlive: keepAlive)
            plan.stall = true
            return plan
        }
        if case .reset = route.body {
            var plan = Self(status: 200, body: ByteBuffer(), contentType: nil, request: request, keepAlive: keepAlive)
            plan.reset = true
            plan.delay = route.delay
            return plan
        }

        if let credentials = route.basicAuth,
            !isAuthorized(
                request, user: credentials.user,
                password: credentials.password)
        {
            var plan = Self(
                status: 401, body: ByteBuffer(string: "Unauthorized"), contentType: "text/plain",
                request: request, keepAlive: keepAlive)
            plan.head.headers.add(name: "WWW-Authenticate", value: "Basic realm=\"SDPortTestServer\"")
            plan.delay = route.delay
            return plan
        }

        let body: ByteBuffer
        switch route.body {
        case .data(let buffer):
            body = buffer
        case .file(let url):
            // Read at request time on the event loop: test fixtures are small, and a blocking read here
            // only delays this server's other connections.
            guard let data = try? Data(contentsOf: url) else {
                var plan = Self(
                    status: 404, body: ByteBuffer(string: "Not Found"), contentType: "text/plain",
                    request: request, keepAlive: keepAlive)
                plan.delay = route.delay
                return plan
            }
            body = ByteBuffer(bytes: data)
        case .stall, .reset:
            body = ByteBuffer()  // handled above
        }

        var status = route.status
        if isNotModified(route: route, request: request) { status = 304 }
        let hasBody = status != 304 && status != 204 && !(100..<200).contains(status)
        let sendsBody = hasBody && request.method != .HEAD

        var headers = HTTPHeaders()
        if let contentType = route.contentType, status != 304 { headers.add(name: "Content-Type", value: contentType) }
        if let etag = route.etag { headers.add(name: "ETag", value: etag) }
        if let date = route.lastModified { headers.add(name: "Last-Modified", value: httpDate(date)) }
        if let cacheControl = route.cacheControl { headers.add(name: "Cache-Control", value: cacheControl) }
        for cookie in route.cookies { headers.add(name: "Set-Cookie", value: cookie) }

        // Framing. HTTP/1.0 has no chunked encoding, so a chunked route is close-delimited there.
        var framing = route.framing
        if framing == .chunked && !(request.version.major == 1 && request.version.minor >= 1) {
            framing = .closeDelimited
        }
        var ending: Ending = .endMessage(keepAlive: keepAlive)
        if hasBody {
            switch framing {
            case .contentLength:
                headers.add(name: "Content-Length", value: String(body.readableBytes))
            case .chunked:
                headers.add(name: "Transfer-Encoding", value: "chunked")
            case .closeDelimited:
                ending = .endMessageThenClose
            }
        }
        if !keepAlive || ending.closes { headers.add(name: "Connection", value: "close") }

        for (name, value) in route.extraHeaders.sorted(by: { $0.key < $1.key }) {
            headers.replaceOrAdd(name: name, value: value)
        }

        var sent = sendsBody ? body : ByteBuffer()
        if sendsBody, let limit = route.closeAfterBytes {
            sent = sent.getSlice(at: sent.readerIndex, length: min(max(0, limit), sent.readableBytes)) ?? ByteBuffer()
            ending = .closeConnection
        }

        var plan = Self(status: status, body: ByteBuffer(), contentType: nil, request: request, keepAlive: keepAlive)
        plan.head = HTTPResponseHead(
            version: request.version, status: HTTPResponseStatus(statusCode: status),
            headers: headers)
        plan.delay = route.delay
        plan.ending = ending
        if let chunkSize = route.trickleChunkSize {
            plan.pieces = stride(from: 0, to: sent.readableBytes, by: chunkSize).map {
                sent.getSlice(at: sent.readerIndex + $0, length: min(chunkSize, sent.readableBytes - $0))!
            }
            plan.interval = route.trickleInterval
        } else {
            plan.pieces = sent.readableBytes == 0 ? [] : [sent]
        }
        return plan
    }

    /// True when the request carries `Authorization: Basic` with exactly `user:password`.
    private static func isAuthorized(_ request: HTTPRequestHead, user: String, password: String) -> Bool {
        guard let value = request.headers.first(name: "Authorization") else { return false }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let decoded = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces))
        else {
            return false
        }
        return String(decoding: decoded, as: UTF8.self) == "\(user):\(password)"
    }

    /// A conditional request the route can answer with 304: If-None-Match decides when both sides have an
    /// entity tag; otherwise If-Modified-Since not older than Last-Modified (compared in whole seconds).
    private static func isNotModified(route: SDPortTestRoute, request: HTTPRequestHead) -> Bool {
        guard request.method == .GET || request.method == .HEAD else { return false }
        if let etag = route.etag, let ifNoneMatch = request.headers.first(name: "If-None-Match") {
            let tags = ifNoneMatch.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return tags.contains("*") || tags.contains(etag) || tags.contains("W/" + etag)
        }
        if let lastModified = route.lastModified, let since = request.headers.first(name: "If-Modified-Since"),
            let sinceDate = parseHTTPDate(since)
        {
            return sinceDate.timeIntervalSince1970 >= lastModified.timeIntervalSince1970.rounded(.down)
        }
        return false
    }

    /// An IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT").
    static func httpDate(_ date: Date) -> String {
        httpDateFormatter().string(from: date)
    }

    static func parseHTTPDate(_ text: String) -> Date? {
        httpDateFormatter().date(from: text.trimmingCharacters(in: .whitespaces))
    }

    /// A new formatter each time: DateFormatter is not Sendable, and this runs on several event loops.
    private static func httpDateFormatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }
}

extension SDPortTestResponsePlan.Ending {
    /// Whether the server closes the connection after this response.
    var closes: Bool {
        switch self {
        case .endMessage: return false
        case .endMessageThenClose, .closeConnection: return true
        }
    }
}
