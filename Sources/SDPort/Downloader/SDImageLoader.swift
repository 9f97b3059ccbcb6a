import Foundation

/// Something that loads images for URLs: the network downloader, the file loader, a loader of your own (V5-03).
///
/// Ports the `SDImageLoader` protocol (`SDImageLoader.h`, 5.x). 4.4.8 has no such abstraction: the manager always uses
/// `SDWebImageDownloader`. In the 5.x flow (`SDWebImageManager.loadImage(with:options:context:...)`) the loader comes
/// from the context's `imageLoader` (a context key since 5.6.0), else the manager's own loader (here its downloader;
/// in 5.x its `imageLoader`, the shared `SDWebImageDownloader` unless the manager was given another); an
/// `SDImageLoadersManager` picks among several.
///
/// A loader is called from any thread; its completion may run on any queue (the manager hops to its own). Loaders
/// decode the data themselves, honouring the context's coder and the decode options — `SDImageLoaderDecodeImageData`
/// does it the standard way.
/// At tag 5.21.5: `SDWebImage/Core/SDImageLoader.h:74` (`SDImageLoader`), `SDWebImage/Core/SDImageLoader.h:112` (`-requestImageWithURL:options:context:progress:completed:`).
public protocol SDImageLoader: AnyObject, Sendable {
    /// Whether this loader can load `url` (for example: its scheme).
    func canRequestImage(for url: URL?) -> Bool

    /// Starts loading; returns something that cancels it, or nil when nothing was started (the completion has then
    /// been called with an error). After a cancel the completion need not be called.
    @discardableResult
    func requestImage(
        with url: URL?, options: SDWebImageV5Options, context: SDWebImageContext?,
        progress: SDImageLoaderProgressBlock?,
        completed: SDImageLoaderCompletedBlock?
    ) -> (any SDWebImageOperation)?

    /// Whether a failure for `url` should put it on the manager's failed-URL list.
    func shouldBlockFailedURL(with url: URL, error: Error) -> Bool
}
