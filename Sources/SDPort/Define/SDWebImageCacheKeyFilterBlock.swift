import Foundation

/// Turns a URL into the cache key (MGR-02). Ports `SDWebImageCacheKeyFilterBlock`.
public typealias SDWebImageCacheKeyFilterBlock = @Sendable (_ url: URL?) -> String?
