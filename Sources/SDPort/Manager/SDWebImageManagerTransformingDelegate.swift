import Foundation

/// A manager delegate that transforms downloaded images before they are cached and delivered (MGR-13): the
/// optional `-imageManager:transformDownloadedImage:withURL:` of 4.4.8's `SDWebImageManagerDelegate`.
///
/// 4.4.8 runs the transform only when the delegate implements it and the image is not animated (an animated one
/// needs `TransformAnimatedImage`) (`SDWebImageManager.m:244`), on a global queue; once the download has finished, a
/// non-nil transformed image (one not `isEqual:` to the downloaded one; the port compares identity) is stored with
/// nil data, so the cache encodes it again for the disk, unless a `cacheSerializer` makes data from it
/// (`SDWebImageManager.m:249-258`).
/// Conforming to this protocol is the port's "implements it" (see `SDWebImageManagerDelegate`). 5.x replaces it
/// with `SDImageTransformer` in the context.
/// At tag 4.4.8: `SDWebImage/SDWebImageManager.h:166` (`-imageManager:transformDownloadedImage:withURL:`).
public protocol SDWebImageManagerTransformingDelegate: SDWebImageManagerDelegate {
    /// Transforms a freshly downloaded image; runs on a global queue. Return the same object to keep it as is.
    func imageManager(
        _ imageManager: SDWebImageManager, transformDownloadedImage image: UIImage?, withURL imageURL: URL?
    ) -> UIImage?
}
