import Foundation

/// The settings of one `SDImageCache`. Every property may be changed at any time from any thread; the
/// cache reads them when it needs them.
///
/// Ports `SDImageCacheConfig` (`SDImageCacheConfig.m`, 4.4.8), with its defaults: decompress on, exclude from
/// backup on, memory cache on, weak memory cache on, one week, no size limit, expiry by modification date.
/// 5.x renames `maxCacheAge`/`maxCacheSize` to `maxDiskAge`/`maxDiskSize`, makes a negative age mean "never
/// expire", adds memory limits here, and later defaults the weak cache off (5.12.0) and the expiry to the access
/// date (5.20.0).
///
/// Linux differences: `shouldDisableiCloud` has nothing to switch off (no backup attribute exists), it is kept
/// for source compatibility. Disk writes are always atomic (temporary file, then rename), whatever
/// `diskCacheWritingOptions` says.
///
/// Each property is guarded by its own lock (`SDLocked`).
/// At tag 4.4.8: `SDWebImage/SDImageCacheConfig.m:15` (`-init`), `SDWebImage/SDImageCacheConfig.m:11` (`kDefaultCacheMaxCacheAge`).
/// At tag 5.21.5: `SDWebImage/Core/SDImageCacheConfig.m:26` (`-init`), `SDWebImage/Core/SDImageCacheConfig.h:95` (`maxDiskAge`).
public final class SDImageCacheConfig: @unchecked Sendable {
    /// One week, in seconds (`kDefaultCacheMaxCacheAge`).
    public static let defaultMaxCacheAge: TimeInterval = 60 * 60 * 24 * 7

    /// The 4.4.8 defaults: decompress, no iCloud backup, memory cache on, one week, no size limit.
    public init() {}

    /// Force-decode images read from disk (FAQ-13). Default true. (4.4.8's built-in coders force-decode only still
    /// images, and only on iOS, tvOS and watchOS; on macOS the flag changes nothing.)
    @SDLocked public var shouldDecompressImages: Bool = true

    /// Exclude cache files from backups. Default true. A no-op on Linux (kept for source compatibility).
    @SDLocked public var shouldDisableiCloud: Bool = true

    /// Keep images in the memory cache. Default true. When false, stores and disk hits skip memory.
    @SDLocked public var shouldCacheImagesInMemory: Bool = true

    /// Also remember images weakly, so one purged by a memory warning but still held elsewhere (say, by a view) is
    /// found again without a disk read (4.4.2+, iOS and tvOS only). Default true. (On macOS and watchOS 4.4.8's
    /// memory cache has no weak side, so the flag changes nothing.)
    @SDLocked public var shouldUseWeakMemoryCache: Bool = true

    /// Options for reading cache files (for example `.mappedIfSafe`). Default none.
    @SDLocked public var diskCacheReadingOptions: Data.ReadingOptions = []

    /// Options for writing cache files. Default `.atomic`. The port writes atomically in every case.
    @SDLocked public var diskCacheWritingOptions: Data.WritingOptions = .atomic

    /// How long a file stays in the disk cache, in seconds (FAQ-07). Default one week. As in 4.4.8, a negative
    /// age puts the cut-off in the future, so the next cleanup deletes every file.
    @SDLocked public var maxCacheAge: TimeInterval = SDImageCacheConfig.defaultMaxCacheAge

    /// The most bytes on disk the cache may keep after a cleanup (FAQ-08); 0 (default) means no limit.
    @SDLocked public var maxCacheSize: UInt = 0

    /// Which file date the cleanup compares with `maxCacheAge`. Default `.modificationDate`.
    @SDLocked public var diskCacheExpireType: SDImageCacheConfigExpireType = .modificationDate
}
