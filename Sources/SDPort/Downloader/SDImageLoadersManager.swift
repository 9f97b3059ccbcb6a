import Foundation

/// A loader made of several loaders: each request goes to the last added loader that can request its URL (V5-03).
///
/// Ports `SDImageLoadersManager` (`SDImageLoadersManager.m`, 5.x). The original starts with the shared
/// downloader; so does `shared` here. The list is guarded by `loadersLock` (the original uses a lock too).
/// At tag 5.21.5: `SDWebImage/Core/SDImageLoadersManager.m:80` (`-canRequestImageForURL:`), `SDWebImage/Core/SDImageLoadersManager.m:100` (`-requestImageWithURL:options:context:progress:completed:`).
public final class SDImageLoadersManager: SDImageLoader, @unchecked Sendable {
    /// A manager holding the shared downloader.
    public static let shared = SDImageLoadersManager()

    /// Guards `_loaders`.
    private let loadersLock = NSLock()
    private var _loaders: [any SDImageLoader]

    /// A manager with the shared downloader.
    public convenience init() {
        self.init(loaders: [SDWebImageDownloader.shared])
    }

    /// A manager with exactly these loaders; the last one is asked first.
    public init(loaders: [any SDImageLoader]) {
        _loaders = loaders
    }

    /// The loaders, in the order they were added.
    public var loaders: [any SDImageLoader] {
        get { loadersLock.withLock { _loaders } }
        set { loadersLock.withLock { _loaders = newValue } }
    }

    /// Adds a loader; it is asked before every loader added earlier.
    public func addLoader(_ loader: any SDImageLoader) {
        loadersLock.withLock { _loaders.append(loader) }
    }

    /// Removes a loader (compared by identity).
    public func removeLoader(_ loader: any SDImageLoader) {
        loadersLock.withLock { _loaders.removeAll { $0 === loader } }
    }

    /// The loader that gets `url`: the last added one that can request it.
    public func loader(for url: URL?) -> (any SDImageLoader)? {
        loaders.reversed().first { $0.canRequestImage(for: url) }
    }

    public func canRequestImage(for url: URL?) -> Bool {
        loader(for: url) != nil
    }

    /// Hands the request to `loader(for:)`. With no able loader (or no URL) it completes at once with
    /// `SDWebImageV5Error.invalidURL` and returns nil (5.x returns nil without calling the completion).
    @discardableResult
    public func requestImage(
        with url: URL?, options: SDWebImageV5Options, context: SDWebImageContext?,
        progress: SDImageLoaderProgressBlock?,
        completed: SDImageLoaderCompletedBlock?
    ) -> (any SDWebImageOperation)? {
        guard let url, let loader = loader(for: url) else {
            completed?(nil, nil, SDWebImageV5Error.invalidURL(url), true)
            return nil
        }
        return loader.requestImage(
            with: url, options: options, context: context, progress: progress, completed: completed)
    }

    /// Asks the loader that would load `url`; false when none would.
    public func shouldBlockFailedURL(with url: URL, error: Error) -> Bool {
        loader(for: url)?.shouldBlockFailedURL(with: url, error: error) ?? false
    }
}
