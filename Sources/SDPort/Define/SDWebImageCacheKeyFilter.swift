import Foundation

/// Turns a URL into a cache key for one load (context key `cacheKeyFilter`).
///
/// Ports 5.x's `SDWebImageCacheKeyFilter` class (`SDWebImageCacheKeyFilter.h`), a block wrapped in an object so it
/// can sit in the context dictionary. 4.4.8 only has the manager-wide `cacheKeyFilter` block
/// (`SDWebImageCacheKeyFilterBlock`), which the port's 5.x flow still uses when the context has no filter (5.x's
/// manager holds an `SDWebImageCacheKeyFilter` object instead).
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageCacheKeyFilter.m:32` (`-cacheKeyForURL:`).
public final class SDWebImageCacheKeyFilter: Sendable {
    private let block: SDWebImageCacheKeyFilterBlock

    /// Wraps `block`, which maps a URL to its cache key.
    public init(block: @escaping SDWebImageCacheKeyFilterBlock) {
        self.block = block
    }

    /// The key for `url`; nil means "do not cache".
    public func cacheKey(for url: URL) -> String? {
        block(url)
    }
}
