import Foundation

/// The HTTP caching rules (RFC 9111, for a private cache) that NSURLSession applies for
/// `useProtocolCachePolicy` and this port applies itself on Linux, where the port owns the transport.
///
/// Stored responses carry the time they were received in their `userInfo` (`receivedAtKey`); freshness is
/// `max-age`, else `Expires − Date`, else a tenth of `Date − Last-Modified` (the usual heuristic), and a
/// response with `no-cache` is never fresh. Stale responses with an `ETag` or `Last-Modified` are revalidated.
enum SDWebImageHTTPCacheRules {
    /// `userInfo` key of a stored response: when it was received (seconds since 1970).
    static let receivedAtKey = "SDPortReceivedAt"

    /// The directives of a `Cache-Control` header, lowercased; values without quotes.
    static func cacheControl(_ value: String?) -> [String: String] {
        guard let value else { return [:] }
        var directives: [String: String] = [:]
        for part in value.split(separator: ",") {
            let pieces = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = pieces.first?.lowercased(), !name.isEmpty else { continue }
            directives[name] =
                pieces.count > 1 ? pieces[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : ""
        }
        return directives
    }

    /// The largest body the session offers its cache, the port's stand-in for NSURLSession's rule: Apple's
    /// documentation of `urlSession(_:dataTask:willCacheResponse:completionHandler:)` lists, among the conditions
    /// for caching, a response small enough for the cache, giving about 5 % of a disk cache's size as the example.
    /// The port takes exactly a twentieth of the disk capacity, and (its own choice) of the memory capacity for a
    /// cache without a disk. It keeps no body for the cache past this, so a large download is not held twice.
    static func largestStorableBody(in cache: URLCache) -> Int {
        (cache.diskCapacity > 0 ? cache.diskCapacity : cache.memoryCapacity) / 20
    }

    /// Whether a response may be stored at all: a 200 that neither side marked `no-store`.
    static func isStorable(_ response: HTTPURLResponse, request: URLRequest) -> Bool {
        guard response.statusCode == 200 else { return false }
        if cacheControl(response.value(forHTTPHeaderField: "Cache-Control"))["no-store"] != nil { return false }
        if cacheControl(request.value(forHTTPHeaderField: "Cache-Control"))["no-store"] != nil { return false }
        return true
    }

    /// Whether a stored response can be served without asking the server.
    static func isFresh(_ cached: CachedURLResponse, now: Date = Date()) -> Bool {
        guard let response = cached.response as? HTTPURLResponse else { return false }
        let directives = cacheControl(response.value(forHTTPHeaderField: "Cache-Control"))
        if directives["no-cache"] != nil { return false }
        let date = httpDate(response.value(forHTTPHeaderField: "Date"))
        let receivedAt = (cached.userInfo?[receivedAtKey] as? Double).map(Date.init(timeIntervalSince1970:)) ?? date
        guard let receivedAt else { return false }
        let ageHeader = response.value(forHTTPHeaderField: "Age").flatMap(TimeInterval.init) ?? 0
        let age = max(0, now.timeIntervalSince(receivedAt)) + ageHeader
        let lifetime: TimeInterval
        if let maxAge = directives["max-age"].flatMap(TimeInterval.init) {
            lifetime = maxAge
        } else if let expires = httpDate(response.value(forHTTPHeaderField: "Expires")) {
            lifetime = expires.timeIntervalSince(date ?? receivedAt)
        } else if let lastModified = httpDate(response.value(forHTTPHeaderField: "Last-Modified")) {
            lifetime = max(0, (date ?? receivedAt).timeIntervalSince(lastModified)) / 10
        } else {
            lifetime = 0
        }
        return age < lifetime
    }

    /// The conditional headers that revalidate a stored response, empty when it has no validator.
    static func validators(for cached: CachedURLResponse) -> [String: String] {
        guard let response = cached.response as? HTTPURLResponse else { return [:] }
        var headers: [String: String] = [:]
        if let etag = response.value(forHTTPHeaderField: "ETag") { headers["If-None-Match"] = etag }
        if let lastModified = response.value(forHTTPHeaderField: "Last-Modified") {
            headers["If-Modified-Since"] = lastModified
        }
        return headers
    }

    /// The stored response refreshed by a 304: its headers updated with the 304's (RFC 9111 §4.3.4),
    /// received now. The body stays the stored one.
    static func refreshed(_ cached: CachedURLResponse, with notModified: HTTPURLResponse, now: Date = Date())
        -> CachedURLResponse
    {
        guard let old = cached.response as? HTTPURLResponse, let url = old.url else { return cached }
        var headers: [String: String] = [:]
        for (name, value) in old.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        for (name, value) in notModified.allHeaderFields {
            guard let name = name as? String, let value = value as? String else { continue }
            // A 304 describes the stored body, so its framing headers must not replace the stored ones.
            if ["content-length", "content-encoding", "transfer-encoding", "content-type"].contains(name.lowercased()) {
                continue
            }
            if let existing = headers.keys.first(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) {
                headers.removeValue(forKey: existing)
            }
            headers[name] = value
        }
        let response =
            HTTPURLResponse(url: url, statusCode: old.statusCode, httpVersion: "HTTP/1.1", headerFields: headers) ?? old
        return stamped(
            CachedURLResponse(
                response: response, data: cached.data, userInfo: cached.userInfo,
                storagePolicy: cached.storagePolicy), now: now)
    }

    /// A copy of `cached` that records when it was received.
    static func stamped(_ cached: CachedURLResponse, now: Date = Date()) -> CachedURLResponse {
        var info = cached.userInfo ?? [:]
        info[receivedAtKey] = now.timeIntervalSince1970
        return CachedURLResponse(
            response: cached.response, data: cached.data, userInfo: info,
            storagePolicy: cached.storagePolicy)
    }

    /// Parses an HTTP date (IMF-fixdate, the only form servers should send).
    static func httpDate(_ text: String?) -> Date? {
        guard let text else { return nil }
        let formatter = DateFormatter()  // DateFormatter is not thread-safe: one per call
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
