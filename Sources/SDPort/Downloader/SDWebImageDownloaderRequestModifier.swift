import Foundation

/// Rewrites the request of one download (context key `downloadRequestModifier`): add a header, change the URL.
///
/// Ports 5.x's `SDWebImageDownloaderRequestModifier` class (`SDWebImageDownloaderRequestModifier.h`). Returning nil
/// cancels the download, which then fails with `SDWebImageV5Error.invalidDownloadOperation`. 4.4.8's nearest
/// feature is the downloader-wide `headersFilter`, which gets the URL but can change only the headers.
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageDownloaderRequestModifier.m:32` (`-modifiedRequestWithRequest:`).
public final class SDWebImageDownloaderRequestModifier: Sendable {
    private let block: @Sendable (URLRequest) -> URLRequest?

    /// Wraps `block`, which returns the request to send, or nil to cancel it.
    public init(block: @escaping @Sendable (_ request: URLRequest) -> URLRequest?) {
        self.block = block
    }

    /// Convenience: a modifier that adds (or replaces) these header fields.
    public convenience init(headers: [String: String]) {
        self.init { request in
            var modified = request
            for (field, value) in headers { modified.setValue(value, forHTTPHeaderField: field) }
            return modified
        }
    }

    /// The request `block` returns for `request`.
    public func modifiedRequest(with request: URLRequest) -> URLRequest? {
        block(request)
    }
}
