/// Options of `SDImageCache.queryCacheOperation(forKey:options:done:)`, with SDWebImage 4.4's bit values.
///
/// Ports `SDImageCacheOptions` from `SDImageCache.h` (4.4.8). 5.x renumbers them: `QueryDataWhenInMemory` becomes
/// `QueryMemoryData` (1 << 0), `QueryDiskSync` splits into `QueryMemoryDataSync` (1 << 1) and `QueryDiskDataSync`
/// (1 << 2), `ScaleDownLargeImages` moves to 1 << 3, and more follow (`DecodeFirstFrameOnly`; `MatchAnimatedImageClass`
/// since 5.1.0).
/// At tag 4.4.8: `SDWebImage/SDImageCache.h:28` (`SDImageCacheOptions`).
/// At tag 5.21.5: `SDWebImage/Core/SDImageCache.h:18` (`SDImageCacheOptions`).
public struct SDImageCacheOptions: OptionSet, Sendable, Hashable {
    /// The bits, with the original's values.
    public let rawValue: UInt
    /// Options from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Even on a memory hit, read the data from disk too (the done block then gets image and data).
    public static let queryDataWhenInMemory = SDImageCacheOptions(rawValue: 1 << 0)
    /// Search the disk synchronously: the done block runs before `queryCacheOperation` returns.
    public static let queryDiskSync = SDImageCacheOptions(rawValue: 1 << 1)
    /// Scale down large images decoded from disk (`SDWebImageCoderScaleDownLargeImagesKey`). As in 4.4.8, it acts only
    /// while `config.shouldDecompressImages` is on (and 4.4.8 scales down on iOS, tvOS and watchOS only).
    public static let scaleDownLargeImages = SDImageCacheOptions(rawValue: 1 << 2)
}
