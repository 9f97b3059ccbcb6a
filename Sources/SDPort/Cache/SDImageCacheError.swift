import Foundation

/// Why the disk cache could not write a file: the port's clear error for an unusable cache directory.
///
/// The original ignores write errors (`writeToURL:options:error:nil` in
/// `-[SDImageCache _storeImageDataToDisk:forKey:]`, 4.4.8); the port still never fails a store because of them, but
/// logs this error, and returns it from `SDImageCache.writeImageDataToDisk(_:forKey:)`, a port addition that throws.
/// In `SDWebImageErrorDomain`.
/// At tag 4.4.8: `SDWebImage/SDImageCache.m:341` (`-_storeImageDataToDisk:forKey:`).
public enum SDImageCacheError: Error, Sendable, Equatable, CustomNSError, LocalizedError {
    /// The cache directory does not exist and could not be created.
    case directoryUnavailable(path: String, reason: String)
    /// The file could not be written (disk full, no permission, ...); nothing was left under the cache name.
    case writeFailed(path: String, reason: String)

    /// `SDWebImageErrorDomain`, the domain the port's own error enums share.
    public static var errorDomain: String { SDWebImageErrorDomain }

    /// 101 for `directoryUnavailable`, 102 for `writeFailed`.
    public var errorCode: Int {
        switch self {
        case .directoryUnavailable: return 101
        case .writeFailed: return 102
        }
    }

    /// The description under `NSLocalizedDescriptionKey`, so an `NSError` bridge reads the same text.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: errorDescription ?? ""] }

    /// One line naming the path and the system's reason.
    public var errorDescription: String? {
        switch self {
        case .directoryUnavailable(let path, let reason):
            return "Cannot create the disk cache directory \(path): \(reason)"
        case .writeFailed(let path, let reason):
            return "Cannot write the disk cache file \(path): \(reason)"
        }
    }
}
