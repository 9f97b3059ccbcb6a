import Foundation

/// The name of one entry of an `SDWebImageContext`.
///
/// Ports `SDWebImageContextOption` from `SDWebImageDefine.h` (5.x; 4.4.8 has no such type, only the plain
/// dictionary its views' `sd_internalSetImageWithURL:…context:` takes, with two keys). In the original the
/// option is an `NSString` typedef with one global constant per key; here it is a `String`-backed struct whose
/// static members carry the same raw strings, so a key written by hand (`"imageTransformer"`) still matches.
///
/// Only the keys that mean something without UIKit are defined. Left out on purpose: `animatedImageClass` (there is no
/// `SDAnimatedImage` class here; chapter 09 says why), and the 5.x keys added after article A3 (`Docs/articles.md`).
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageDefine.h:13` (`SDWebImageContextOption`).
public struct SDWebImageContextOption: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The key's string, as 5.x's `SDWebImageContextOption` is a string.
    public let rawValue: String
    /// The option with this string key.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The option with this string key, written as a literal.
    public init(stringLiteral value: String) { self.rawValue = value }
    /// The key's string.
    public var description: String { rawValue }

    /// `String`: the key a view files its running load under instead of its class name (5.x
    /// `sd_internalSetImageWithURL`); `sd_internalSetImage` honours it
    /// (`test_V501_setImageOperationKeyNamesTheViewsLoad`).
    public static let setImageOperationKey: Self = "setImageOperationKey"
    /// `SDWebImageManager`: the manager that should run the load instead of the one asked (in 5.x only the views
    /// read it, in place of the shared manager).
    public static let customManager: Self = "customManager"
    /// `SDImageCache`: the cache to query and fill instead of the manager's.
    public static let imageCache: Self = "imageCache"
    /// `any SDImageLoader`: the loader to use instead of the manager's downloader (V5-03).
    public static let imageLoader: Self = "imageLoader"
    /// `any SDWebImageCoder`: the coder to decode with instead of `SDWebImageCodersManager.shared` (5.x falls back to
    /// `SDImageCodersManager`, and its cache also encodes with this coder when it stores an image without data;
    /// the port only decodes with it).
    public static let imageCoder: Self = "imageCoder"
    /// `any SDImageTransformer`: applied after loading; the result is cached under a transformed key (V5-02).
    public static let imageTransformer: Self = "imageTransformer"
    /// `CGFloat` (or `Double`, `Int`) ≥ 1: the decoded image's scale, overriding the `@2x`/`@3x` rule of the key.
    public static let imageScaleFactor: Self = "imageScaleFactor"
    /// `Bool`: whether a thumbnail keeps the aspect ratio (default true).
    public static let imagePreserveAspectRatio: Self = "imagePreserveAspectRatio"
    /// `CGSize` in pixels: decode to at most this size; the cache key gets a `Thumbnail(...)` suffix.
    public static let imageThumbnailPixelSize: Self = "imageThumbnailPixelSize"
    /// `SDWebImageV5CacheType`: where the loaded (and transformed) image is stored under the load's key; default
    /// `.all`. Without a transform or a thumbnail pixel size that key is the original one, where 5.14.0 on also
    /// stores with `originalStoreCacheType` (default `.disk`), so `.none` or `.memory` alone does not keep a
    /// downloaded image off disk.
    public static let storeCacheType: Self = "storeCacheType"
    /// `SDWebImageV5CacheType`: where the loaded image is stored under the original key, transformed or not, as
    /// 5.14.0 on does (5.1.0–5.13 only for a transformed one, 5.13 also for a thumbnail); default `.disk` (5.11.1
    /// on; `.none` before).
    public static let originalStoreCacheType: Self = "originalStoreCacheType"
    /// `SDWebImageDownloaderRequestModifier`: rewrites the download request (the downloader loader only).
    public static let downloadRequestModifier: Self = "downloadRequestModifier"
    /// `SDWebImageDownloaderResponseModifier`: rewrites the download response (the downloader loader only).
    public static let downloadResponseModifier: Self = "downloadResponseModifier"
    /// `SDWebImageDownloaderDecryptor`: turns the downloaded bytes into image bytes before decoding (the
    /// downloader loader only; V5-11).
    public static let downloadDecryptor: Self = "downloadDecryptor"
    /// `SDWebImageCacheKeyFilter`: turns the URL into the cache key instead of the manager's filter.
    public static let cacheKeyFilter: Self = "cacheKeyFilter"
    /// `SDWebImageCacheSerializer`: chooses the bytes written to disk instead of the manager's serializer.
    public static let cacheSerializer: Self = "cacheSerializer"
    /// `SDCallbackQueue` (or a `DispatchQueue`, taken with `.safeExecute`): where and how the 5.x flow calls back
    /// instead of the manager's, cache's or downloader's `completionQueue` (5.x `SDWebImageContextCallbackQueue`,
    /// which came with 5.15.0; those components have no `completionQueue` there, so without the key they call
    /// back on the main queue).
    public static let callbackQueue: Self = "callbackQueue"
    /// `UIImage`: set by the manager when a `RefreshCached` load found a cached image, so a loader knows what is
    /// already cached (5.x `SDWebImageContextLoaderCachedImage`).
    public static let loaderCachedImage: Self = "loaderCachedImage"
}

/// Per-load settings of a 5.x-style load: option names to values.
///
/// Ports `SDWebImageContext` (`NSDictionary<SDWebImageContextOption, id>`, 5.x). Values must be `Sendable` because
/// the load crosses queues; each key's documentation says which type it expects. A value of the wrong type is
/// ignored. 5.6.0 to 5.13.x did so for a context cache or loader (later a transformer too) through
/// `conformsToProtocol:`; from 5.14.0 the manager uses such a value as given, so a wrong one fails at its first
/// message instead.
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageDefine.h:14` (`SDWebImageContext`).
public typealias SDWebImageContext = [SDWebImageContextOption: any Sendable]
