/// The downloader's option flags, with SDWebImage 4.4's bit values (FAQ-15).
///
/// Ports `SDWebImageDownloaderOptions` from `SDWebImageDownloader.h` (4.4.8).
/// At tag 4.4.8: `SDWebImage/SDWebImageDownloader.h:13` (`SDWebImageDownloaderOptions`).
public struct SDWebImageDownloaderOptions: OptionSet, Sendable, Hashable {
    /// The bits, with the values of 4.4.8's `SDWebImageDownloaderOptions`.
    public let rawValue: UInt
    /// Options from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// `SDWebImageDownloaderLowPriority`: low queue priority, and low task priority in 4.4.8's default operation;
    /// `highPriority` wins when both are set.
    public static let lowPriority = SDWebImageDownloaderOptions(rawValue: 1 << 0)
    /// `SDWebImageDownloaderProgressiveDownload`: decode and report partial images while the data arrives (4.4.8's
    /// default operation does so only when the response states its length).
    public static let progressiveDownload = SDWebImageDownloaderOptions(rawValue: 1 << 1)
    /// Use the HTTP protocol cache (UseProtocolCachePolicy) instead of ReloadIgnoringLocalCacheData (FAQ-09).
    public static let useNSURLCache = SDWebImageDownloaderOptions(rawValue: 1 << 2)
    /// With this option, a download whose bytes equal what the protocol cache held when it started (as a response
    /// served from that cache does) completes with nil image and data (FAQ-09; 4.4.8's default operation reads the
    /// cached data only under this option and compares it with `isEqualToData:`).
    public static let ignoreCachedResponse = SDWebImageDownloaderOptions(rawValue: 1 << 3)
    /// A documented no-op on Linux: there are no background tasks (OP-09).
    public static let continueInBackground = SDWebImageDownloaderOptions(rawValue: 1 << 4)
    /// `SDWebImageDownloaderHandleCookies`: send and store cookies for the request.
    public static let handleCookies = SDWebImageDownloaderOptions(rawValue: 1 << 5)
    /// `SDWebImageDownloaderAllowInvalidSSLCertificates`: accept a server certificate that does not verify (in 4.4.8,
    /// done by the default operation when it answers a server-trust challenge).
    public static let allowInvalidSSLCertificates = SDWebImageDownloaderOptions(rawValue: 1 << 6)
    /// `SDWebImageDownloaderHighPriority`: high queue priority, and high task priority in 4.4.8's default operation.
    public static let highPriority = SDWebImageDownloaderOptions(rawValue: 1 << 7)
    /// `SDWebImageDownloaderScaleDownLargeImages`: shrink a decoded image over the memory limit (FAQ-13); in 4.4.8's
    /// default operation only with `shouldDecompressImages` on, never for a GIF or an animated image, and only on
    /// iOS, tvOS and watchOS.
    public static let scaleDownLargeImages = SDWebImageDownloaderOptions(rawValue: 1 << 8)
}
