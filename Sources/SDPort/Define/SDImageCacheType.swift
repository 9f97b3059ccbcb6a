/// Where an image came from (FAQ-05).
///
/// Ports `SDImageCacheType` from `SDImageCache.h` (4.4.8): `none` means the image was downloaded,
/// `disk` that it was read from the disk cache, `memory` that it was found in the memory cache.
/// At tag 4.4.8: `SDWebImage/SDImageCache.h:13` (`SDImageCacheType`).
public enum SDImageCacheType: Int, Sendable, CustomStringConvertible {
    /// Not from a cache: the image was downloaded (`SDImageCacheTypeNone`, 0).
    case none = 0
    /// Read from the disk cache (`SDImageCacheTypeDisk`, 1).
    case disk = 1
    /// Found in the memory cache (`SDImageCacheTypeMemory`, 2).
    case memory = 2

    /// The case's name ("none (downloaded)", "disk", "memory"), as the trace prints it.
    public var description: String {
        switch self {
        case .none: return "none (downloaded)"
        case .disk: return "disk"
        case .memory: return "memory"
        }
    }
}
