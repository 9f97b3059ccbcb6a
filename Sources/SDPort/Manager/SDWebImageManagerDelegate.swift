import Foundation

/// Lets an app steer the manager: whether to download a missed image, whether to blacklist a failed URL, and
/// how to transform a downloaded image before it is cached and delivered (MGR-13).
///
/// Ports the `SDWebImageManagerDelegate` protocol (`SDWebImageManager.h`, 4.4.8), whose three methods are all
/// `@optional`. Swift has no optional protocol methods without the Objective-C runtime (absent on Linux), so
/// each has a default implementation that behaves exactly as "not implemented" does in the original:
/// - `shouldDownloadImageFor` → true (download when missed);
/// - `shouldBlockFailedURL` → the manager's built-in rule (`SDWebImageManager.shouldBlockFailedURL(with:)`,
///   the eight excluded network errors);
/// - `transformDownloadedImage` → the image itself, unchanged. The one visible difference: with a delegate set,
///   every downloaded still image passes through the transform step on a global queue before it is delivered
///   (the original skips that step when the method is missing). The result and the cached data are the same,
///   because an unchanged image keeps its downloaded data.
///
/// The methods are called off the main queue (the transform on a global queue, the others on whatever queue
/// the cache or the downloader answers on), so a delegate must be `Sendable`.
/// 5.x keeps `shouldDownloadImageForURL` and `shouldBlockFailedURL`; transforms move to `SDImageTransformer`.
/// At tag 4.4.8: `SDWebImage/SDWebImageManager.h:132` (`SDWebImageManagerDelegate`).
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageManager.h:53` (`SDWebImageManagerDelegate`).
public protocol SDWebImageManagerDelegate: AnyObject, Sendable {
    /// Whether to download `imageURL` when it is not in the cache (or is being refreshed).
    func imageManager(_ imageManager: SDWebImageManager, shouldDownloadImageFor imageURL: URL?) -> Bool
    /// Whether to put `imageURL` on the failed-URL list after `error` (4.4's addition).
    func imageManager(_ imageManager: SDWebImageManager, shouldBlockFailedURL imageURL: URL, withError error: Error) -> Bool
    /// Transforms a freshly downloaded image; runs on a global queue. Return the same object to keep it as is.
    func imageManager(_ imageManager: SDWebImageManager, transformDownloadedImage image: UIImage?, withURL imageURL: URL?) -> UIImage?
}

extension SDWebImageManagerDelegate {
    public func imageManager(_ imageManager: SDWebImageManager, shouldDownloadImageFor imageURL: URL?) -> Bool {
        true
    }

    public func imageManager(_ imageManager: SDWebImageManager, shouldBlockFailedURL imageURL: URL, withError error: Error) -> Bool {
        SDWebImageManager.shouldBlockFailedURL(with: error)
    }

    public func imageManager(_ imageManager: SDWebImageManager, transformDownloadedImage image: UIImage?, withURL imageURL: URL?) -> UIImage? {
        image
    }
}
