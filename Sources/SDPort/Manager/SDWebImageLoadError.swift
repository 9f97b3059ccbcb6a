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

    public static var errorDomain: String { SDWebImageErrorDomain }

    public var errorCode: Int {
        switch self {
        case .noImage: return 1100
        }
    }

    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: errorDescription ?? ""] }

    public var errorDescription: String? {
        switch self {
        case .noImage(let url):
            return "No image for \(url?.absoluteString ?? "nil"): not in the cache and not downloaded"
        }
    }
}
