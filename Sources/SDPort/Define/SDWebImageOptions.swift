/// The manager's and the views' option flags, with SDWebImage 4.4's bit values (FAQ-15).
///
/// Ports `SDWebImageOptions` from `SDWebImageManager.h` (4.4.8). Flags combine with `|` (Swift: set
/// union or `[.a, .b]`) and are tested with `&` (Swift: `contains`). 5.x renumbers some flags and adds
/// others (for example `FromLoaderOnly`); those are not part of this 4.x set.
/// At tag 4.4.8: `SDWebImage/SDWebImageManager.h:14` (`SDWebImageOptions`).
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageDefine.h:53` (`SDWebImageOptions`).
public struct SDWebImageOptions: OptionSet, Sendable, Hashable {
    /// The bits, with the values of 4.4.8's `SDWebImageOptions`.
    public let rawValue: UInt
    /// Options from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Retry a URL even if it is on the failed-URL blacklist.
    public static let retryFailed = SDWebImageOptions(rawValue: 1 << 0)
    /// Download at low queue priority.
    public static let lowPriority = SDWebImageOptions(rawValue: 1 << 1)
    /// Store in memory only, never on disk.
    public static let cacheMemoryOnly = SDWebImageOptions(rawValue: 1 << 2)
    /// Deliver partial images while downloading.
    public static let progressiveDownload = SDWebImageOptions(rawValue: 1 << 3)
    /// Revalidate a cached image with the HTTP protocol cache.
    public static let refreshCached = SDWebImageOptions(rawValue: 1 << 4)
    /// Keep downloading in the background (iOS and tvOS only in 4.4.8, `SD_UIKIT`; a documented no-op on Linux).
    public static let continueInBackground = SDWebImageOptions(rawValue: 1 << 5)
    /// Send and store cookies.
    public static let handleCookies = SDWebImageOptions(rawValue: 1 << 6)
    /// Accept untrusted TLS certificates.
    public static let allowInvalidSSLCertificates = SDWebImageOptions(rawValue: 1 << 7)
    /// Download at high queue priority.
    public static let highPriority = SDWebImageOptions(rawValue: 1 << 8)
    /// Show the placeholder only when the load ends without an image (a failure, or a miss with `FromCacheOnly`).
    public static let delayPlaceholder = SDWebImageOptions(rawValue: 1 << 9)
    /// Let the manager delegate transform animated images too.
    public static let transformAnimatedImage = SDWebImageOptions(rawValue: 1 << 10)
    /// Do not set the loaded image on the view; the completion does it.
    public static let avoidAutoSetImage = SDWebImageOptions(rawValue: 1 << 11)
    /// Scale decoded images down to the memory limit (60 MB of decoded RGBA, 15,728,640 pixels); in 4.4.8 only
    /// while `shouldDecompressImages` is on (downloader and cache), and only on iOS, tvOS and watchOS.
    public static let scaleDownLargeImages = SDWebImageOptions(rawValue: 1 << 12)
    /// Also read the disk data when the image is found in memory.
    public static let queryDataWhenInMemory = SDWebImageOptions(rawValue: 1 << 13)
    /// Read the disk cache synchronously.
    public static let queryDiskSync = SDWebImageOptions(rawValue: 1 << 14)
    /// Never download: a cache miss completes with no image and no error (finished).
    public static let fromCacheOnly = SDWebImageOptions(rawValue: 1 << 15)
    /// Apply the view transition even for images from the cache.
    public static let forceTransition = SDWebImageOptions(rawValue: 1 << 16)
}
