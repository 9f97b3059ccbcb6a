import Foundation

/// A manager delegate that transforms each downloaded image before it is cached and delivered (MGR-13): the
/// optional `-imageManager:transformDownloadedImage:withURL:` of 4.4.8's `SDWebImageManagerDelegate`.
///
/// 4.4.8 runs the transform only when the delegate implements it (`SDWebImageManager.m:244`), on a global queue; a
/// transformed image (one not `isEqual:` to the downloaded one; the port compares identity) is stored with nil data,
/// so the cache encodes it again, unless a `cacheSerializer` makes data from it (`SDWebImageManager.m:249-258`).
/// Conforming to this protocol is the port's "implements it" (see `SDWebImageManagerDelegate`). Animated images are
/// transformed only with `TransformAnimatedImage`. 5.x replaces it with `SDImageTransformer` in the context.
/// At tag 4.4.8: `SDWebImage/SDWebImageManager.h:166` (`-imageManager:transformDownloadedImage:withURL:`).
public protocol SDWebImageManagerTransformingDelegate: SDWebImageManagerDelegate {
    /// Transforms a freshly downloaded image; runs on a global queue. Return the same object to keep it as is.
    func imageManager(
        _ imageManager: SDWebImageManager, transformDownloadedImage image: UIImage?, withURL imageURL: URL?
    ) -> UIImage?
}
