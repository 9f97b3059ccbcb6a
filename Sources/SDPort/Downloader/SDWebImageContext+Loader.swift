import Foundation

/// The context's loader and download modifiers (5.x `SDWebImageContextImageLoader`,
/// `SDWebImageContextDownloadRequestModifier`, `SDWebImageContextDownloadResponseModifier`).
extension Dictionary where Key == SDWebImageContextOption, Value == any Sendable {
    var imageLoader: (any SDImageLoader)? { value(.imageLoader, as: (any SDImageLoader).self) }
    var requestModifier: SDWebImageDownloaderRequestModifier? {
        value(.downloadRequestModifier, as: SDWebImageDownloaderRequestModifier.self)
    }
    var responseModifier: SDWebImageDownloaderResponseModifier? {
        value(.downloadResponseModifier, as: SDWebImageDownloaderResponseModifier.self)
    }
}
