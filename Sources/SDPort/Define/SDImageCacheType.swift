/// Where an image came from (FAQ-05).
///
/// Ports `SDImageCacheType` from `SDImageCache.h` (4.4.8): `none` means the image was downloaded,
/// `disk` that it was read from the disk cache, `memory` that it was found in the memory cache.
/// At tag 4.4.8: `SDWebImage/SDImageCache.h:13` (`SDImageCacheType`).
public enum SDImageCacheType: Int, Sendable, CustomStringConvertible {
    case none = 0
    case disk = 1
    case memory = 2

    public var description: String {
        switch self {
        case .none: return "none (downloaded)"
        case .disk: return "disk"
        case .memory: return "memory"
        }
    }
}
