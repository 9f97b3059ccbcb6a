import Foundation

/// What `downloadImage(with:...)` returns: a handle that cancels one caller's callbacks.
///
/// Ports `SDWebImageDownloadToken` (`SDWebImageDownloader.m`, 4.4.8): the URL, a weak reference to the
/// operation, and the operation's token for this caller's callbacks. Cancelling removes only those callbacks;
/// the download itself stops when no callbacks are left (the fix for the original's issue #883). 5.x keeps the
/// design and adds the request and the response to the token (and the task metrics in 5.6.0).
/// At tag 4.4.8: `SDWebImage/SDWebImageDownloader.m:21` (`SDWebImageDownloadToken`), `SDWebImage/SDWebImageDownloader.m:23` (`-cancel`).
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageDownloader.m:548` (`SDWebImageDownloadToken`).
public final class SDWebImageDownloadToken: SDWebImageOperation, @unchecked Sendable {
    /// The URL the token's callbacks were added for.
    public let url: URL?
    /// The operation's token for this caller's callbacks.
    public let downloadOperationCancelToken: Any?
    /// Weak, as in the original: a token must not keep a finished operation alive. Set once in `init`.
    public private(set) weak var downloadOperation: (Operation & SDWebImageDownloaderOperationInterface)?

    init(url: URL?, operation: (Operation & SDWebImageDownloaderOperationInterface)?, cancelToken: Any?) {
        self.url = url
        self.downloadOperation = operation
        self.downloadOperationCancelToken = cancelToken
    }

    /// Removes this caller's callbacks; the operation is cancelled when they were the last ones.
    public func cancel() {
        guard let operation = downloadOperation, let cancelToken = downloadOperationCancelToken else { return }
        _ = operation.cancel(cancelToken)
    }
}
