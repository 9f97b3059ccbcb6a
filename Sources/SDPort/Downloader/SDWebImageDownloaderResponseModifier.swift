import Foundation

/// Rewrites the response of one download (context key `downloadResponseModifier`), for example to treat a
/// status as a failure.
///
/// Ports 5.x's `SDWebImageDownloaderResponseModifier` class (`SDWebImageDownloaderResponseModifier.h`).
/// Linux difference: the port's download operation (4.4.8's) does not let a caller see the response before the
/// body arrives, so the modifier runs once the download has finished, on the final response. Returning nil fails
/// the load with `SDWebImageV5Error.invalidDownloadResponse`; a modified HTTP status outside 200..<400 fails it
/// with `invalidDownloadStatusCode`. 5.x calls it as the response arrives and cancels the transfer instead.
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
