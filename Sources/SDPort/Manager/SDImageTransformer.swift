import Foundation

/// Turns a loaded image into another one (resize, flip, ...) before it is cached and delivered (V5-02).
///
/// Ports the `SDImageTransformer` protocol (`SDImageTransformer.h`, 5.x). 4.4.8's nearest feature is the manager
/// delegate's `imageManager(_:transformDownloadedImage:withURL:)`, which stores the result under the URL's own
/// key; a 5.x transformer's result is stored under `SDTransformedKeyForKey(key, transformerKey)`, so the original
/// and each transformed version can live side by side in the cache (5.x stores the original too by default from
/// 5.11.1, when `originalStoreCacheType` became `.disk`).
///
/// Transformers run on a background queue, many at once, so they must be thread-safe (the concrete ones here are
/// immutable).
/// At tag 4.4.8: `SDWebImage/SDWebImageManager.h:166` (`-imageManager:transformDownloadedImage:withURL:`).
/// At tag 5.21.5: `SDWebImage/Core/SDImageTransformer.h:38` (`SDImageTransformer`), `SDWebImage/Core/SDImageTransformer.h:67` (`-transformedImageWithImage:forKey:`).
public protocol SDImageTransformer: AnyObject, Sendable {
    /// Identifies the transformation and its parameters; becomes part of the cache key.
    var transformerKey: String { get }
    /// The transformed image, or nil when it cannot be made (the untransformed image is then used).
    func transformedImage(with image: UIImage, forKey key: String) -> UIImage?
}
