import Foundation

/// What `SDWebImageDownloader` needs from a download operation class (`setOperationClass`, DL-05).
///
/// Ports `SDWebImageDownloaderOperationInterface` (`SDWebImageDownloaderOperation.h`, 4.4.8). A custom class
/// must also be an `Operation` subclass. The original makes operations with `[[cls alloc] initWithRequest:
/// inSession:options:]`, an initializer its protocol already lists as required; the port's protocol requires it
/// too, which Swift needs to call it on a class object. The session is the port's libcurl transport instead of an
/// `NSURLSession` (Linux).
/// 5.x renames the protocol `SDWebImageDownloaderOperation` and requires a second initializer that also takes a
/// context.
/// At tag 4.4.8: `SDWebImage/SDWebImageDownloaderOperation.h:24` (`SDWebImageDownloaderOperationInterface`), `SDWebImage/SDWebImageDownloaderOperation.m:72` (`-initWithRequest:inSession:options:`).
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageDownloaderOperation.h:18` (`SDWebImageDownloaderOperation`).
public protocol SDWebImageDownloaderOperationInterface: AnyObject {
    /// An operation for `request`, run as a task of `transport`; the downloader makes each operation with this.
    init(request: URLRequest?, in transport: SDWebImageCurlSession?, options: SDWebImageDownloaderOptions)
    /// Adds a caller's callbacks; the result is the token `cancel(_:)` takes. nil when the operation is
    /// already finishing and can no longer take callbacks (a port addition: the downloader then starts a new one).
    func addHandlers(
        forProgress progressBlock: SDWebImageDownloaderProgressBlock?,
        completed completedBlock: SDWebImageDownloaderCompletedBlock?
    ) -> Any?
    /// Whether the decoded image is force-decoded (the downloader's setting, copied on creation).
    var shouldDecompressImages: Bool { get set }
    /// The credential answered to an authentication challenge.
    var credential: URLCredential? { get set }
    /// Removes the callbacks of `token`; cancels the whole operation when none are left and returns whether it did.
    func cancel(_ token: Any?) -> Bool
    /// The running task, if any.
    var dataTask: SDWebImageCurlTask? { get }
}
