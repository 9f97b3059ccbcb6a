import Foundation

/// The context's cache (5.x `SDWebImageContextImageCache`), read where the cache lives.
extension Dictionary where Key == SDWebImageContextOption, Value == any Sendable {
    var imageCache: SDImageCache? { value(.imageCache, as: SDImageCache.self) }
}
