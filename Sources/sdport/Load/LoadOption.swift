import SDPort

/// The names `sdport load --option NAME` accepts: the `SDWebImageOptions` flags (4.4.8 bit values) that mean
/// something without a view or a manager delegate (so not `transformAnimatedImage`). An unknown name is a usage
/// error (exit 2) that lists the valid ones.
enum LoadOption: String, CaseIterable, Sendable {
    case retryFailed
    case lowPriority
    case cacheMemoryOnly
    case progressiveDownload
    case refreshCached
    case continueInBackground
    case handleCookies
    case allowInvalidSSLCertificates
    case highPriority
    case scaleDownLargeImages
    case queryDataWhenInMemory
    case queryDiskSync
    case fromCacheOnly

    /// The manager flag this name stands for.
    var flag: SDWebImageOptions {
        switch self {
        case .retryFailed: return .retryFailed
        case .lowPriority: return .lowPriority
        case .cacheMemoryOnly: return .cacheMemoryOnly
        case .progressiveDownload: return .progressiveDownload
        case .refreshCached: return .refreshCached
        case .continueInBackground: return .continueInBackground
        case .handleCookies: return .handleCookies
        case .allowInvalidSSLCertificates: return .allowInvalidSSLCertificates
        case .highPriority: return .highPriority
        case .scaleDownLargeImages: return .scaleDownLargeImages
        case .queryDataWhenInMemory: return .queryDataWhenInMemory
        case .queryDiskSync: return .queryDiskSync
        case .fromCacheOnly: return .fromCacheOnly
        }
    }

    /// The union of the flags named.
    static func combined(_ options: [LoadOption]) -> SDWebImageOptions {
        options.reduce(into: SDWebImageOptions()) { $0.formUnion($1.flag) }
    }
}
