import Foundation

/// Why an awaited load finished without an image although nothing failed.
///
/// Port addition for the async/await face. The completion-block API of 4.4.8 reports these cases as a call
/// with a nil image and a nil error (`SDWebImageManager.m`, `loadImageWithURL:`); an `async throws` function
/// must either return an image or throw, so it throws this, in `SDWebImageErrorDomain`.
/// At tag 4.4.8: `SDWebImage/SDWebImageManager.m:117` (`-loadImageWithURL:options:progress:completed:`).
public enum SDWebImageLoadError: Error, Sendable, Equatable, CustomNSError, LocalizedError {
    /// The image was not in the cache and the download was not allowed (by `FromCacheOnly` or the delegate),
    /// or the delegate's transform returned nil.
    case noImage(URL?)

    /// `SDWebImageErrorDomain`, the domain of every SDPort error.
    public static var errorDomain: String { SDWebImageErrorDomain }

    /// 1100 for `noImage`.
    public var errorCode: Int {
        switch self {
        case .noImage: return 1100
        }
    }

    /// The description under `NSLocalizedDescriptionKey`, so an `NSError` bridge reads the same text.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: errorDescription ?? ""] }

    /// One line naming the URL.
    public var errorDescription: String? {
        switch self {
        case .noImage(let url):
            return "No image for \(url?.absoluteString ?? "nil"): not in the cache and not downloaded"
        }
    }
}
