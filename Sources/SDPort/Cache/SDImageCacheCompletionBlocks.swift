import Foundation

// The block types of `SDImageCache.h` and `SDWebImageCompat.h` (4.4.8), as @Sendable closures because the
// port's cache may call them on another queue than the caller's (its `completionQueue`; 4.4.8 uses the main queue).

/// A completion without parameters (`SDWebImageNoParamsBlock`).
/// At tag 4.4.8: `SDWebImage/SDWebImageCompat.h:92` (`SDWebImageNoParamsBlock`).
public typealias SDWebImageNoParamsBlock = @Sendable () -> Void

/// The done block of a cache query: the image (nil on a miss), the disk data when it was read, and where
/// the image came from.
/// At tag 4.4.8: `SDWebImage/SDImageCache.h:44` (`SDCacheQueryCompletedBlock`).
public typealias SDCacheQueryCompletedBlock =
    @Sendable (_ image: UIImage?, _ data: Data?, _ cacheType: SDImageCacheType) -> Void

/// Whether a file for the key exists on disk.
/// At tag 4.4.8: `SDWebImage/SDImageCache.h:46` (`SDWebImageCheckCacheCompletionBlock`).
public typealias SDWebImageCheckCacheCompletionBlock = @Sendable (_ isInCache: Bool) -> Void

/// The number of files in the disk cache and their total size in bytes.
/// At tag 4.4.8: `SDWebImage/SDImageCache.h:48` (`SDWebImageCalculateSizeBlock`).
public typealias SDWebImageCalculateSizeBlock = @Sendable (_ fileCount: UInt, _ totalSize: UInt) -> Void
