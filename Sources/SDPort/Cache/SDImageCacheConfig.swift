import Foundation

/// The settings of one `SDImageCache`. Every property may be changed at any time from any thread; the
/// cache reads them when it needs them.
///
/// Ports `SDImageCacheConfig` (`SDImageCacheConfig.m`, 4.4.8), with its defaults: decompress on, exclude from
/// backup on, memory cache on, weak memory cache on, one week, no size limit, expiry by modification date.
/// 5.x renames `maxCacheAge`/`maxCacheSize` to `maxDiskAge`/`maxDiskSize`, makes a negative age mean "never
/// expire", adds memory limits here, and defaults the weak cache off and the expiry to the access date.
///
/// Linux differences: `shouldDisableiCloud` has nothing to switch off (no backup attribute exists), it is kept
/// for source compatibility. Disk writes are always atomic (temporary file, then rename), whatever
/// `diskCacheWritingOptions` says.
///
/// The properties are guarded by `lock`.
public final class SDImageCacheConfig: @unchecked Sendable {
    /// One week, in seconds (`kDefaultCacheMaxCacheAge`).
    public static let defaultMaxCacheAge: TimeInterval = 60 * 60 * 24 * 7

    private let lock = NSLock()
    private var _shouldDecompressImages = true
    private var _shouldDisableiCloud = true
    private var _shouldCacheImagesInMemory = true
    private var _shouldUseWeakMemoryCache = true
    private var _diskCacheReadingOptions: Data.ReadingOptions = []
    private var _diskCacheWritingOptions: Data.WritingOptions = .atomic
    private var _maxCacheAge: TimeInterval = SDImageCacheConfig.defaultMaxCacheAge
    private var _maxCacheSize: UInt = 0
    private var _diskCacheExpireType: SDImageCacheConfigExpireType = .modificationDate

    public init() {}

    /// Force-decode images read from disk (FAQ-13). Default true.
    public var shouldDecompressImages: Bool {
        get { lock.withLock { _shouldDecompressImages } }
        set { lock.withLock { _shouldDecompressImages = newValue } }
    }

    /// Exclude cache files from backups. Default true. A no-op on Linux (kept for source compatibility).
    public var shouldDisableiCloud: Bool {
        get { lock.withLock { _shouldDisableiCloud } }
        set { lock.withLock { _shouldDisableiCloud = newValue } }
    }

    /// Keep images in the memory cache. Default true. When false, stores and disk hits skip memory.
    public var shouldCacheImagesInMemory: Bool {
        get { lock.withLock { _shouldCacheImagesInMemory } }
        set { lock.withLock { _shouldCacheImagesInMemory = newValue } }
    }

    /// Also remember images weakly, so one purged by a memory warning but still shown somewhere is found
    /// again without a disk read (4.4.2+). Default true.
    public var shouldUseWeakMemoryCache: Bool {
        get { lock.withLock { _shouldUseWeakMemoryCache } }
        set { lock.withLock { _shouldUseWeakMemoryCache = newValue } }
    }

    /// Options for reading cache files (for example `.mappedIfSafe`). Default none.
    public var diskCacheReadingOptions: Data.ReadingOptions {
        get { lock.withLock { _diskCacheReadingOptions } }
        set { lock.withLock { _diskCacheReadingOptions = newValue } }
    }

    /// Options for writing cache files. Default `.atomic`. The port writes atomically in every case.
    public var diskCacheWritingOptions: Data.WritingOptions {
        get { lock.withLock { _diskCacheWritingOptions } }
        set { lock.withLock { _diskCacheWritingOptions = newValue } }
    }

    /// How long a file stays in the disk cache, in seconds (FAQ-07). Default one week. As in 4.4.8, a negative
    /// age puts the cut-off in the future, so the next cleanup deletes every file.
    public var maxCacheAge: TimeInterval {
        get { lock.withLock { _maxCacheAge } }
        set { lock.withLock { _maxCacheAge = newValue } }
    }

    /// The most bytes on disk the cache may keep after a cleanup (FAQ-08); 0 (default) means no limit.
    public var maxCacheSize: UInt {
        get { lock.withLock { _maxCacheSize } }
        set { lock.withLock { _maxCacheSize = newValue } }
    }

    /// Which file date the cleanup compares with `maxCacheAge`. Default `.modificationDate`.
    public var diskCacheExpireType: SDImageCacheConfigExpireType {
        get { lock.withLock { _diskCacheExpireType } }
        set { lock.withLock { _diskCacheExpireType = newValue } }
    }
}
