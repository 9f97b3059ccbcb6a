import Foundation

/// The downloader's settings as one value, behind the downloader's one lock, so a request is never built from
/// half-changed settings.
///
/// Shaped like 5.x's `SDWebImageDownloaderConfig` (`SDWebImageDownloaderConfig.h`) and Nuke's
/// `ImagePipeline.Configuration`; 4.4.8 keeps these as properties of `SDWebImageDownloader`, and the port keeps those
/// 4.4.8 names as the public API: `downloader.downloadTimeout` reaches this value's field through the downloader's
/// dynamic member lookup, and `SDWebImageDownloader.config` reads or replaces it whole. 5.x also moves
/// `maxConcurrentDownloads` here; the port leaves it on the operation queue.
/// At tag 4.4.8: `SDWebImage/SDWebImageDownloader.h:131` (`downloadTimeout`).
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageDownloaderConfig.h:29` (`SDWebImageDownloaderConfig`), `SDWebImage/Core/SDWebImageDownloaderConfig.m:24` (`-init`).
public struct SDWebImageDownloaderConfig: @unchecked Sendable {  // URLCredential is immutable once made
    /// Force-decode downloaded images; copied into each new operation.
    public var shouldDecompressImages = true
    /// The request timeout in seconds (an idle timeout); 0 means 15.
    public var downloadTimeout: TimeInterval = 15
    /// FIFO (the default) or LIFO (FAQ-16).
    public var executionOrder = SDWebImageDownloaderExecutionOrder.fifo
    /// The credential for HTTP authentication; wins over `username` / `password`.
    public var urlCredential: URLCredential?
    /// The user name sent when the server asks for credentials.
    public var username: String?
    /// The password sent with `username`.
    public var password: String?
    /// Called for each request with the URL and the headers; its result is sent instead.
    public var headersFilter: SDWebImageDownloaderHeadersFilterBlock?
    /// The headers sent with every request.
    public var httpHeaders: SDHTTPHeadersDictionary = [:]
    /// The class new operations are made of.
    public var operationClass: any (Operation & SDWebImageDownloaderOperationInterface).Type =
        SDWebImageDownloaderOperation.self
    /// Where download completion blocks run: the main queue by default, as 4.4.8's operation calls them through
    /// `dispatch_main_async_safe` (OP-04). Port addition for programs that never drain the main queue (no
    /// `dispatchMain()`, main run loop or main actor): set it, and the manager's and cache's `completionQueue`, to
    /// a queue of theirs. Copied into each new operation.
    public var completionQueue: DispatchQueue = .main

    /// The 4.4.8 defaults.
    public init() {}
}
