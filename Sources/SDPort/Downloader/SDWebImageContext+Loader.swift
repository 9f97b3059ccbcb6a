import Foundation

/// The context's loader, download modifiers and decryptor (`SDWebImageContextImageLoader`, 5.6.0 on;
/// `SDWebImageContextDownloadRequestModifier`, 5.0.0 on; `SDWebImageContextDownloadResponseModifier` and
/// `SDWebImageContextDownloadDecryptor`, 5.3.0 on).
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageDefine.h:266` (`SDWebImageContextImageLoader`), `SDWebImage/Core/SDWebImageDefine.h:400` (`SDWebImageContextDownloadRequestModifier`), `SDWebImage/Core/SDWebImageDefine.h:405` (`SDWebImageContextDownloadResponseModifier`), `SDWebImage/Core/SDWebImageDefine.h:410` (`SDWebImageContextDownloadDecryptor`).
extension Dictionary where Key == SDWebImageContextOption, Value == any Sendable {
    var imageLoader: (any SDImageLoader)? { value(.imageLoader, as: (any SDImageLoader).self) }
    var requestModifier: SDWebImageDownloaderRequestModifier? {
        value(.downloadRequestModifier, as: SDWebImageDownloaderRequestModifier.self)
    }
    var responseModifier: SDWebImageDownloaderResponseModifier? {
        value(.downloadResponseModifier, as: SDWebImageDownloaderResponseModifier.self)
    }
    var downloadDecryptor: SDWebImageDownloaderDecryptor? {
        value(.downloadDecryptor, as: SDWebImageDownloaderDecryptor.self)
    }
}
