import Foundation

/// What the downloader sets on an operation before it starts, as one value behind one lock
/// (`SDWebImageDownloaderOperation.settings`); 4.4.8 keeps the two it has, `shouldDecompressImages` and `credential`,
/// as the operation's properties (the completion queue is the port's).
struct SDWebImageDownloaderOperationSettings: @unchecked Sendable {  // URLCredential is immutable once made
    var shouldDecompressImages = true
    var completionQueue: DispatchQueue = .main
    var credential: URLCredential?
}
