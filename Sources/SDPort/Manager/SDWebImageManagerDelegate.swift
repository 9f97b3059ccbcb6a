import Foundation

/// Lets an app steer the manager: whether to download a missed image and whether to blacklist a failed URL
/// (MGR-13). To transform downloaded images too, conform to `SDWebImageManagerTransformingDelegate`.
///
/// Ports the `SDWebImageManagerDelegate` protocol (`SDWebImageManager.h`, 4.4.8), whose three methods are all
/// `@optional`; the manager calls each only when the delegate `respondsToSelector:` it
/// (`SDWebImageManager.m:171,209,244`). Swift has no optional protocol methods without the Objective-C runtime
/// (absent on Linux), so the port says "not implemented" in two ways:
/// - `shouldDownloadImageFor` and `shouldBlockFailedURL` have default implementations that do exactly what the
///   manager does when the method is missing: true (download when missed), and the manager's built-in rule
///   (`SDWebImageManager.shouldBlockFailedURL(with:)`, the eight excluded network errors).
/// - The transform has no such neutral answer: whether it exists decides whether a downloaded image (a still one,
///   or any with `TransformAnimatedImage`) takes a hop to a global queue before it is stored and delivered. So it
///   lives in a protocol of its own, `SDWebImageManagerTransformingDelegate`, and the manager checks conformance
///   where 4.4.8 checks `respondsToSelector:`. A delegate that only answers `shouldDownload` keeps the store and
///   the completion on the downloader's completion queue, in order.
///
/// The methods are called off the main queue (on whatever queue the cache or the downloader answers on), so a
/// delegate must be `Sendable`.
/// 5.x keeps `shouldDownloadImageForURL` and `shouldBlockFailedURL`; transforms move to `SDImageTransformer`.
/// At tag 4.4.8: `SDWebImage/SDWebImageManager.h:132` (`SDWebImageManagerDelegate`).
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageManager.h:53` (`SDWebImageManagerDelegate`).
public protocol SDWebImageManagerDelegate: AnyObject, Sendable {
    /// Whether to download `imageURL` when it is not in the cache (or is being refreshed).
    func imageManager(_ imageManager: SDWebImageManager, shouldDownloadImageFor imageURL: URL?) -> Bool
    /// Whether to put `imageURL` on the failed-URL list after `error` (added in 4.3.3).
    func imageManager(_ imageManager: SDWebImageManager, shouldBlockFailedURL imageURL: URL, withError error: Error)
        -> Bool
}

extension SDWebImageManagerDelegate {
    public func imageManager(_ imageManager: SDWebImageManager, shouldDownloadImageFor imageURL: URL?) -> Bool {
        true
    }

    public func imageManager(
        _ imageManager: SDWebImageManager, shouldBlockFailedURL imageURL: URL, withError error: Error
    ) -> Bool {
        SDWebImageManager.shouldBlockFailedURL(with: error)
    }
}
