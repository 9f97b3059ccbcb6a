import Foundation

/// Turns a URL into the cache key (MGR-02). Ports `SDWebImageCacheKeyFilterBlock`.
/// At tag 4.4.8: `SDWebImage/SDWebImageManager.h:125` (`SDWebImageCacheKeyFilterBlock`).
public typealias SDWebImageCacheKeyFilterBlock = @Sendable (_ url: URL?) -> String?
