import Foundation

/// Rewrites the response of one download (context key `downloadResponseModifier`), for example to treat a
/// status as a failure.
///
/// Ports 5.x's `SDWebImageDownloaderResponseModifier` class (`SDWebImageDownloaderResponseModifier.h`, 5.3.0+). As in
/// 5.x it runs when the response head arrives (after redirects), and the download operation's `response` is the
/// modified response (V5-08). Returning nil stops the transfer and fails the load with
/// `SDWebImageV5Error.invalidDownloadResponse` (2003); a modified HTTP status of 400 or more fails it with
/// `invalidDownloadStatusCode` (2001), the 4.4.8 downloader's bound (5.x's is its `acceptableStatusCodes`, 200–299
/// by default since 5.12.0, so there a 3xx fails too). See `SDWebImageContextDownloadOperation`.
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageDownloaderResponseModifier.m:33` (`-modifiedResponseWithResponse:`), `SDWebImage/Core/SDWebImageDownloaderOperation.m:430` (`-URLSession:dataTask:didReceiveResponse:completionHandler:`).
public final class SDWebImageDownloaderResponseModifier: Sendable {
    private let block: @Sendable (URLResponse) -> URLResponse?

    /// Wraps `block`, which returns the response to use, or nil to fail the download.
    public init(block: @escaping @Sendable (_ response: URLResponse) -> URLResponse?) {
        self.block = block
    }

    /// The response `block` returns for `response`.
    public func modifiedResponse(with response: URLResponse) -> URLResponse? {
        block(response)
    }
}
