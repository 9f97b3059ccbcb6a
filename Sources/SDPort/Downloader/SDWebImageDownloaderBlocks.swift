import Foundation

/// Progress of a download: bytes received so far, bytes expected (-1 before the response,
/// `NSURLResponseUnknownLength`; 0 when the response does not say), and the URL.
/// Ports `SDWebImageDownloaderProgressBlock` (`SDWebImageDownloader.h`, 4.4.8).
/// At tag 4.4.8: `SDWebImage/SDWebImageDownloader.h:80` (`SDWebImageDownloaderProgressBlock`).
public typealias SDWebImageDownloaderProgressBlock =
    @Sendable (_ receivedSize: Int, _ expectedSize: Int, _ targetURL: URL?) -> Void

/// The end of a download (or, with `finished == false`, a partial image of a progressive one).
/// Ports `SDWebImageDownloaderCompletedBlock`. Called on the downloader's `completionQueue`, the main queue by
/// default, as 4.4.8's default operation class calls it through `dispatch_main_async_safe`.
/// At tag 4.4.8: `SDWebImage/SDWebImageDownloader.h:82` (`SDWebImageDownloaderCompletedBlock`).
public typealias SDWebImageDownloaderCompletedBlock =
    @Sendable (_ image: UIImage?, _ data: Data?, _ error: Error?, _ finished: Bool) -> Void

/// HTTP header fields, name to value (`SDHTTPHeadersDictionary`).
/// At tag 4.4.8: `SDWebImage/SDWebImageDownloader.h:84` (`SDHTTPHeadersDictionary`).
public typealias SDHTTPHeadersDictionary = [String: String]

/// Replaces the headers of each request (`SDWebImageDownloaderHeadersFilterBlock`): gets the URL and the
/// downloader's headers, returns the headers to send.
/// At tag 4.4.8: `SDWebImage/SDWebImageDownloader.h:87` (`SDWebImageDownloaderHeadersFilterBlock`).
public typealias SDWebImageDownloaderHeadersFilterBlock =
    @Sendable (_ url: URL?, _ headers: SDHTTPHeadersDictionary?) -> SDHTTPHeadersDictionary?
