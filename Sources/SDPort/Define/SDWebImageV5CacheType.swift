/// Where a 5.x-style load stores an image, or which caches a query looks in.
///
/// Ports 5.x's `SDImageCacheType` (`SDImageCacheDefine.h`) for the `storeCacheType` and `originalStoreCacheType`
/// context values. It is a separate type because 5.x adds `.all` (memory and disk), which the 4.4.8
/// `SDImageCacheType` the rest of the port reports results with does not have. The raw values are 5.x's.
/// At tag 5.21.5: `SDWebImage/Core/SDImageCacheDefine.h:16` (`SDImageCacheType`).
public enum SDWebImageV5CacheType: Int, Sendable, CustomStringConvertible {
    /// Not stored at all.
    case none = 0
    /// Disk only.
    case disk = 1
    /// Memory only (what 4.4.8's `SDWebImageCacheMemoryOnly` asks for).
    case memory = 2
    /// Memory and disk (the default of `storeCacheType`).
    case all = 3

    var includesMemory: Bool { self == .memory || self == .all }
    var includesDisk: Bool { self == .disk || self == .all }

    /// The case's name, for messages and the trace.
    public var description: String {
        switch self {
        case .none: return "none"
        case .disk: return "disk"
        case .memory: return "memory"
        case .all: return "all"
        }
    }
}
