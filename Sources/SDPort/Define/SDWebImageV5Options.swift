/// The option flags of a 5.x-style load (`loadImage(with:options:context:progress:completed:)`), with SDWebImage
/// 5.x's bit values (V5-04).
///
/// Ports `SDWebImageOptions` from `SDWebImageDefine.h` (5.x), as article A3 (`Docs/articles.md`) lists them. It is a
/// separate type from the port's `SDWebImageOptions`, which keeps 4.4.8's values (FAQ-15). Which flags 5.x renamed,
/// renumbered or added is told once, in chapter 09 ("the 5.x layer"), with the lines at both tags; `init(_:)` converts
/// a 4.x set.
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageDefine.h:53` (`SDWebImageOptions`).
public struct SDWebImageV5Options: OptionSet, Sendable, Hashable {
    /// The bits, with 5.x's values.
    public let rawValue: UInt
    /// Options from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Load a URL even if it is on the failed-URL list.
    public static let retryFailed = Self(rawValue: 1 << 0)
    /// Download at low priority.
    public static let lowPriority = Self(rawValue: 1 << 1)
    /// Deliver partial images while loading (4.x `ProgressiveDownload`).
    public static let progressiveLoad = Self(rawValue: 1 << 2)
    /// Revalidate a cached image through the HTTP protocol cache.
    public static let refreshCached = Self(rawValue: 1 << 3)
    /// Keep loading in the background (no-op on Linux).
    public static let continueInBackground = Self(rawValue: 1 << 4)
    /// Send and store cookies.
    public static let handleCookies = Self(rawValue: 1 << 5)
    /// Accept untrusted TLS certificates.
    public static let allowInvalidSSLCertificates = Self(rawValue: 1 << 6)
    /// Download at high priority.
    public static let highPriority = Self(rawValue: 1 << 7)
    /// Show the placeholder only when the load ends without an image, a failure or a miss (views).
    public static let delayPlaceholder = Self(rawValue: 1 << 8)
    /// Apply the transformer to animated images too.
    public static let transformAnimatedImage = Self(rawValue: 1 << 9)
    /// Do not set the image on the view (views).
    public static let avoidAutoSetImage = Self(rawValue: 1 << 10)
    /// Shrink decoded images over a byte limit (5.21.5's default: 60 MB on iOS, tvOS and visionOS, 90 MB on macOS,
    /// 30 MB on watchOS).
    public static let scaleDownLargeImages = Self(rawValue: 1 << 11)
    /// Also read the disk data when the image is in memory (4.x `QueryDataWhenInMemory`).
    public static let queryMemoryData = Self(rawValue: 1 << 12)
    /// With `queryMemoryData`: read that data synchronously.
    public static let queryMemoryDataSync = Self(rawValue: 1 << 13)
    /// On a memory miss, query the disk synchronously (4.x `QueryDiskSync`, which also makes the data read of a
    /// `QueryDataWhenInMemory` memory hit synchronous; 5.x asks for that with `queryMemoryDataSync`).
    public static let queryDiskDataSync = Self(rawValue: 1 << 14)
    /// Never load: a cache miss completes without an image.
    public static let fromCacheOnly = Self(rawValue: 1 << 15)
    /// Skip the cache query and always load (new in 5.x).
    public static let fromLoaderOnly = Self(rawValue: 1 << 16)
    /// Apply the view transition to cached images too (views).
    public static let forceTransition = Self(rawValue: 1 << 17)
    /// Do not force-decode images after decoding them (new in 5.x).
    public static let avoidDecodeImage = Self(rawValue: 1 << 18)
    /// Decode only the first frame of an animated image, giving a still image (new in 5.x).
    public static let decodeFirstFrameOnly = Self(rawValue: 1 << 19)
    /// Preload every frame of an animated image (accepted; the port's animated images hold all frames anyway).
    public static let preloadAllFrames = Self(rawValue: 1 << 20)

    /// The 5.x flags that mean what the given 4.4.8 flags mean. `CacheMemoryOnly` has no flag in 5.x (it is the
    /// `storeCacheType` context value `.memory`) and is dropped. 4.4.8's `QueryDiskSync` also makes the data read of
    /// a memory hit (one asked for with `QueryDataWhenInMemory`) synchronous, which 5.x asks for with
    /// `QueryMemoryDataSync`; that flag is not added.
    public init(_ options: SDWebImageOptions) {
        let pairs: [(SDWebImageOptions, SDWebImageV5Options)] = [
            (.retryFailed, .retryFailed), (.lowPriority, .lowPriority), (.progressiveDownload, .progressiveLoad),
            (.refreshCached, .refreshCached), (.continueInBackground, .continueInBackground),
            (.handleCookies, .handleCookies), (.allowInvalidSSLCertificates, .allowInvalidSSLCertificates),
            (.highPriority, .highPriority), (.delayPlaceholder, .delayPlaceholder),
            (.transformAnimatedImage, .transformAnimatedImage), (.avoidAutoSetImage, .avoidAutoSetImage),
            (.scaleDownLargeImages, .scaleDownLargeImages), (.queryDataWhenInMemory, .queryMemoryData),
            (.queryDiskSync, .queryDiskDataSync), (.fromCacheOnly, .fromCacheOnly),
            (.forceTransition, .forceTransition),
        ]
        var result: SDWebImageV5Options = []
        for (old, new) in pairs where options.contains(old) { result.insert(new) }
        self = result
    }

    /// The 4.4.8 downloader options a download for these flags asks for (5.x `SDWebImageDownloader`
    /// `requestImageWithURL:`): one to one, `RefreshCached` → `UseNSURLCache`; when a cached image is being
    /// refreshed, no progressive download and `IgnoreCachedResponse`. 5.x also passes on its decoding flags, for
    /// which 4.4.8's set has no bits.
    public func downloaderOptions(refreshingCachedImage: Bool) -> SDWebImageDownloaderOptions {
        let pairs: [(SDWebImageV5Options, SDWebImageDownloaderOptions)] = [
            (.lowPriority, .lowPriority), (.progressiveLoad, .progressiveDownload), (.refreshCached, .useNSURLCache),
            (.continueInBackground, .continueInBackground), (.handleCookies, .handleCookies),
            (.allowInvalidSSLCertificates, .allowInvalidSSLCertificates), (.highPriority, .highPriority),
            (.scaleDownLargeImages, .scaleDownLargeImages),
        ]
        var result: SDWebImageDownloaderOptions = []
        for (option, downloaderOption) in pairs where contains(option) { result.insert(downloaderOption) }
        if refreshingCachedImage {
            result.remove(.progressiveDownload)
            result.insert(.ignoreCachedResponse)
        }
        return result
    }
}
