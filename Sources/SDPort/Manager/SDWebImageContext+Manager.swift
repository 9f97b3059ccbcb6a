import Foundation

/// The context's transformer and cache serializer (5.x `SDWebImageContextImageTransformer`,
/// `SDWebImageContextCacheSerializer`), read by the manager.
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageDefine.h:279` (`SDWebImageContextImageTransformer`), `SDWebImage/Core/SDWebImageDefine.h:420` (`SDWebImageContextCacheSerializer`).
extension Dictionary where Key == SDWebImageContextOption, Value == any Sendable {
    var imageTransformer: (any SDImageTransformer)? { value(.imageTransformer, as: (any SDImageTransformer).self) }
    var cacheSerializer: SDWebImageCacheSerializer? { value(.cacheSerializer, as: SDWebImageCacheSerializer.self) }
}
