import Foundation

/// Where a 5.x disk hit goes in memory (V5-05, V5-09).
///
/// Ports `-[SDImageCache _syncDiskToMemoryWithImage:forKey:]` and the `shouldCacheToMemory` test of the 5.x query
/// (`SDImageCache.m`, 5.x):
/// - (5.9.3 on) the context's `storeCacheType`, when set, must include memory (`.memory` or `.all`); otherwise the
///   decoded file stays out of memory (5.9.3 alone does not even decode it, so its query returns no image). 4.4.8
///   has no such setting: a disk hit always goes into memory (when `config.shouldCacheImagesInMemory`), and the
///   port's 4.x query keeps that.
/// - (5.18.9 on; 5.13.0–5.18.8 keep such a thumbnail out of memory) a file decoded as a thumbnail (the context has an
///   `imageThumbnailPixelSize`) under a key that is not a thumbnail key (no `-Thumbnail(` in it) goes into memory under
///   `SDThumbnailedKeyForKey` of that key: the manager asks the full-size key for its data with the thumbnail size, and
///   the small image must not stand for the full one in memory.
///
/// 5.x knows a thumbnail from the decode options stored on the image (`sd_isThumbnail`); the port's images carry
/// no decode options, so the context the file was decoded with decides, which is where those options come from.
/// At tag 5.21.5: `SDWebImage/Core/SDImageCache.m:530` (`-_syncDiskToMemoryWithImage:forKey:`), `SDWebImage/Core/SDImageCache.m:609` (`-queryCacheOperationForKey:options:context:cacheType:done:`).
extension SDImageCache {
    /// The memory key for an image decoded from `key`'s file with `context`, or nil when it stays out of memory.
    static func memoryKey(forDiskImageOf key: String, context: SDWebImageContext?) -> String? {
        if let storeType = context?.value(.storeCacheType, as: SDWebImageV5CacheType.self), !storeType.includesMemory {
            return nil
        }
        guard let size = context?.thumbnailPixelSize, size.width > 0, size.height > 0,
            !key.contains("-Thumbnail(")
        else {
            return key
        }
        return SDThumbnailedKeyForKey(key, size, context?.preserveAspectRatio ?? true) ?? key
    }
}
