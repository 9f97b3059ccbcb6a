import Foundation

/// The context's cache (5.x `SDWebImageContextImageCache`), read where the cache lives.
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageDefine.h:260` (`SDWebImageContextImageCache`).
extension Dictionary where Key == SDWebImageContextOption, Value == any Sendable {
    var imageCache: SDImageCache? { value(.imageCache, as: SDImageCache.self) }
}
