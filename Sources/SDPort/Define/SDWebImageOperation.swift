import Foundation

/// Something that can be cancelled: a download token, a combined operation, a cache query.
///
/// Ports the `SDWebImageOperation` protocol (`SDWebImageOperation.h`, 4.4.8), whose only method is `cancel`.
/// Foundation's `Operation` conforms, as `NSOperation` does in 5.x through a category (4.4.8 declares it only for its
/// `SDWebImageDownloaderOperation` subclass and calls `cancel` on the cache's `NSOperation` directly). `Sendable`,
/// because operations are cancelled from any thread (as Nuke's `Cancellable` is).
/// At tag 4.4.8: `SDWebImage/SDWebImageOperation.h:11` (`SDWebImageOperation`).
public protocol SDWebImageOperation: AnyObject, Sendable {
    /// Stops the work the operation stands for.
    func cancel()
}

extension Operation: SDWebImageOperation {}
