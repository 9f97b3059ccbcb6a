import Foundation

/// The errors the 5.x layer makes itself, in `SDWebImageErrorDomain` with 5.x's codes.
///
/// Ports `SDWebImageError` (`SDWebImageError.h`, 5.x). 4.4.8 has no error codes of its own: its manager reports a nil
/// or blacklisted URL as `NSURLErrorFileDoesNotExist`, a view a nil URL with code -1, and its default operation
/// gives bad data code 0. Network failures keep their `NSURLErrorDomain` errors in both versions.
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageError.h:23` (`SDWebImageError`).
public enum SDWebImageV5Error: Error, Sendable, Equatable, CustomNSError, LocalizedError {
    /// The URL is nil or empty (1000).
    case invalidURL(URL?)
    /// The data is empty or does not decode (1001); the text says why.
    case badImageData(String)
    /// The URL failed before and is on the failed-URL list; pass `.retryFailed` to load it anyway (1003).
    case blackListed(URL)
    /// The download could not be made, for example the request modifier returned nil (2000).
    case invalidDownloadOperation(String)
    /// The (modified) response has a status that is not a success (2001).
    case invalidDownloadStatusCode(Int, URL?)
    /// The load was cancelled before it finished (2002).
    case cancelled(URL?)
    /// The response modifier returned nil (2003).
    case invalidDownloadResponse(URL?)

    /// `SDWebImageErrorDomain`, the domain of every SDPort error.
    public static var errorDomain: String { SDWebImageErrorDomain }

    /// The 5.x `SDWebImageError` code of each case the port has (a subset of 5.x's codes; chapter 09 lists which).
    public var errorCode: Int {
        switch self {
        case .invalidURL: return 1000
        case .badImageData: return 1001
        case .blackListed: return 1003
        case .invalidDownloadOperation: return 2000
        case .invalidDownloadStatusCode: return 2001
        case .cancelled: return 2002
        case .invalidDownloadResponse: return 2003
        }
    }

    /// The description, and for a bad status code the code under `SDWebImageErrorDownloadStatusCodeKey`, as 5.x (its
    /// bad-status error has a description only from 5.6.0 on; from 5.12.0, 5.x also puts the response under
    /// `SDWebImageErrorDownloadResponseKey`, which the port leaves out).
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: errorDescription ?? ""]
        if case .invalidDownloadStatusCode(let status, _) = self {
            info["SDWebImageErrorDownloadStatusCodeKey"] = status
        }
        return info
    }

    /// One line naming the URL and what went wrong.
    public var errorDescription: String? {
        switch self {
        case .invalidURL(let url):
            return "Image URL is nil or empty (\(url?.absoluteString ?? "nil"))"
        case .badImageData(let reason):
            return "Image data cannot be decoded: \(reason)"
        case .blackListed(let url):
            return "Image URL is on the failed-URL list: \(url.absoluteString) (use retryFailed to load it again)"
        case .invalidDownloadOperation(let reason):
            return "Download cannot be made: \(reason)"
        case .invalidDownloadStatusCode(let status, let url):
            return "Download of \(url?.absoluteString ?? "nil") marked as failed: HTTP status \(status)"
        case .cancelled(let url):
            return "Load of \(url?.absoluteString ?? "nil") was cancelled"
        case .invalidDownloadResponse(let url):
            return "Download of \(url?.absoluteString ?? "nil") marked as failed: the response modifier returned nil"
        }
    }
}
