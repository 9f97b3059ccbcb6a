import Foundation

/// Typed reading of context values, shared by the manager, the cache and the loaders of the 5.x layer.
extension Dictionary where Key == SDWebImageContextOption, Value == any Sendable {
    /// The value under `option` if it has type `T`.
    func value<T>(_ option: SDWebImageContextOption, as type: T.Type) -> T? {
        self[option] as? T
    }

    /// `imageScaleFactor` read from any of the number types a caller may put there.
    var imageScaleFactor: CGFloat? {
        switch self[.imageScaleFactor] {
        case let value as CGFloat: return value
        case let value as Double: return CGFloat(value)
        case let value as Float: return CGFloat(value)
        case let value as Int: return CGFloat(value)
        default: return nil
        }
    }

    var imageCoder: (any SDWebImageCoder)? { value(.imageCoder, as: (any SDWebImageCoder).self) }
    var imageTransformer: (any SDImageTransformer)? { value(.imageTransformer, as: (any SDImageTransformer).self) }
    var imageLoader: (any SDImageLoader)? { value(.imageLoader, as: (any SDImageLoader).self) }
    var imageCache: SDImageCache? { value(.imageCache, as: SDImageCache.self) }
    var thumbnailPixelSize: CGSize? { value(.imageThumbnailPixelSize, as: CGSize.self) }
    var preserveAspectRatio: Bool { value(.imagePreserveAspectRatio, as: Bool.self) ?? true }
    var cacheKeyFilter: SDWebImageCacheKeyFilter? { value(.cacheKeyFilter, as: SDWebImageCacheKeyFilter.self) }
    var cacheSerializer: SDWebImageCacheSerializer? { value(.cacheSerializer, as: SDWebImageCacheSerializer.self) }
    var requestModifier: SDWebImageDownloaderRequestModifier? {
        value(.downloadRequestModifier, as: SDWebImageDownloaderRequestModifier.self)
    }
    var responseModifier: SDWebImageDownloaderResponseModifier? {
        value(.downloadResponseModifier, as: SDWebImageDownloaderResponseModifier.self)
    }
}
