import Foundation

/// Typed reading of context values, shared by the manager, the cache and the loaders of the 5.x layer. The
/// values whose types belong to a layer are read in that layer's own extension (`SDWebImageContext+Coder`, …).
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageDefine.h:14` (`SDWebImageContext`).
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

    var thumbnailPixelSize: CGSize? { value(.imageThumbnailPixelSize, as: CGSize.self) }
    var preserveAspectRatio: Bool { value(.imagePreserveAspectRatio, as: Bool.self) ?? true }
    var cacheKeyFilter: SDWebImageCacheKeyFilter? { value(.cacheKeyFilter, as: SDWebImageCacheKeyFilter.self) }
}
