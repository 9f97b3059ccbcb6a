import Foundation

/// The context's cache (`SDWebImageContextImageCache`, 5.6.0 on), read where the cache lives.
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageDefine.h:260` (`SDWebImageContextImageCache`).
extension Dictionary where Key == SDWebImageContextOption, Value == any Sendable {
    var imageCache: SDImageCache? { value(.imageCache, as: SDImageCache.self) }
}
