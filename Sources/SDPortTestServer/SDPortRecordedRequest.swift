import Foundation

/// One request as it reached `SDPortTestServer`, so a test can assert what went over the network (the
/// downloader's headers, cookies, credentials and conditional-request headers). Port test infrastructure.
public struct SDPortRecordedRequest: Sendable {
    /// "GET", "HEAD", ...
    public let method: String
    /// The request target as sent: path and query, e.g. "/a.jpg?size=2".
    public let path: String
    /// Every header line in the order received (repeated names stay separate).
    public let headers: [(name: String, value: String)]

    public init(method: String, path: String, headers: [(name: String, value: String)]) {
        self.method = method
        self.path = path
        self.headers = headers
    }

    /// The first value of the header `name`, compared case-insensitively; nil when absent.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Every value of the header `name` (case-insensitive), in order.
    public func headerValues(_ name: String) -> [String] {
        headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }
}
