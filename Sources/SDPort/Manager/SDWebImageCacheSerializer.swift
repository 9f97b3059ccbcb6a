import Foundation

/// Chooses the bytes written to the disk cache for one load (context key `cacheSerializer`).
///
/// Ports 5.x's `SDWebImageCacheSerializer` class (`SDWebImageCacheSerializer.h`). 4.4.8 has the manager-wide
/// `cacheSerializer` block, which the port's 5.x flow still uses when the context has none (5.x's manager holds an
/// object conforming to the `SDWebImageCacheSerializer` protocol instead). Returning nil makes the cache encode the
/// image itself (4.4.8's cache: PNG with alpha, JPEG without; 5.6.0 and later try the image's own format first, and
/// GIF for an animated one).
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageCacheSerializer.m:32` (`-cacheDataWithImage:originalData:imageURL:`).
public final class SDWebImageCacheSerializer: Sendable {
    private let block: SDWebImageCacheSerializerBlock

    /// Wraps `block`, which returns the bytes to store on disk for a downloaded image.
    public init(block: @escaping SDWebImageCacheSerializerBlock) {
        self.block = block
    }

    /// The bytes to store for `image`, given the bytes it was loaded from (nil for a transformed image).
    public func cacheData(with image: UIImage, originalData: Data?, imageURL: URL?) -> Data? {
        block(image, originalData, imageURL)
    }
}
