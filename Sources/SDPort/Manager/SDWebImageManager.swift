import Foundation

/// The manager's completion: called with `finished == false` for each partial image of a progressive download,
/// and once with `finished == true` at the end (twice with `RefreshCached` when a cached image was found and the
/// refresh brings a new image or fails).
/// Ports `SDInternalCompletionBlock` (`SDWebImageManager.h`, 4.4.8).
/// At tag 4.4.8: `SDWebImage/SDWebImageManager.h:123` (`SDInternalCompletionBlock`).
public typealias SDInternalCompletionBlock =
    @Sendable (
        _ image: UIImage?, _ data: Data?, _ error: Error?,
        _ cacheType: SDImageCacheType, _ finished: Bool,
        _ imageURL: URL?
    ) -> Void

/// Chooses the bytes written to the disk cache for a downloaded image; nil data makes the cache encode the
/// image. Ports `SDWebImageCacheSerializerBlock` (4.4.8).
/// At tag 4.4.8: `SDWebImage/SDWebImageManager.h:127` (`SDWebImageCacheSerializerBlock`).
public typealias SDWebImageCacheSerializerBlock = @Sendable (_ image: UIImage, _ data: Data?, _ imageURL: URL?) -> Data?

/// Ties the cache and the downloader together: looks in the cache first, downloads when it must, stores what it
/// downloaded, remembers URLs that failed, and calls one completion (MGR-01 … MGR-13).
///
/// Ports `SDWebImageManager` (`SDWebImageManager.m`, 4.4.8), `loadImageWithURL:options:progress:completed:`
/// and its helpers, branch for branch.
///
/// Where completions run: on `completionQueue`, by default the main queue, through `dispatch_queue_async_safe` (so a
/// completion is called at once when the caller is already on that queue, for example a memory hit asked for on the
/// main queue without `.queryDataWhenInMemory`). The original always uses the main queue; `completionQueue` is a port
/// addition, standing in for 5.x's `SDWebImageContextCallbackQueue` (5.15.0 on), so a program without a main run loop
/// can use the manager. Completions that depend on a disk query come from the cache's own `completionQueue`, and
/// download results from the downloader's `completionQueue`; set both to the same queue. Then a failed download runs in
/// 4.4.8's order in one block (its default operation calls back on the main queue, so the completion runs at once):
/// the user's completion, the blacklist update, leaving `runningOperations` (MGR-06).
///
/// Cancellation: once `SDWebImageCombinedOperation.cancel()` returns, no completion of that load is called,
/// whatever thread cancelled it (see `SDWebImageCombinedOperation`).
///
/// 5.x differences: loads take a context dictionary, loaders replace the downloader, a nil URL gives `InvalidURL`
/// instead of `NSURLErrorFileDoesNotExist`, and so does a failed URL until 5.8.0 made it `SDWebImageErrorBlackListed`.
///
/// Thread safety: the settings are one `SDWebImageManagerSettings` value behind one lock, `failedURLs` is
/// guarded by `failedURLsLock` and `runningOperations` by `runningOperationsLock` (the original's two semaphores).
/// At tag 4.4.8: `SDWebImage/SDWebImageManager.m:47` (`-init`), `SDWebImage/SDWebImageManager.m:117` (`-loadImageWithURL:options:progress:completed:`).
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageManager.m:189` (`-loadImageWithURL:options:context:progress:completed:`).
public final class SDWebImageManager: @unchecked Sendable {
    /// The shared manager: the shared cache and the shared downloader (MGR-01).
    public static let shared: SDWebImageManager = {
        let manager = SDWebImageManager(cache: .shared, downloader: .shared, isShared: true)
        // 4.4.8's default operation scales each download with `[[SDWebImageManager sharedManager] cacheKeyForURL:]`.
        SDWebImageDownloaderOperation.sharedManagerCacheKey = { [unowned manager] url in manager.cacheKey(for: url) }
        return manager
    }()

    /// The cache this manager reads and fills.
    public let imageCache: SDImageCache
    /// The downloader this manager downloads with.
    public let imageDownloader: SDWebImageDownloader

    /// Whether this is `shared`: the downloader's operation scales every image with the shared manager's key, so only
    /// other managers with a `cacheKeyFilter` scale again with their own key (as 4.4.8, whose default operation does
    /// the first scaling).
    private let isSharedManager: Bool

    /// The delegate, key filter, serializer and completion queue, behind one lock.
    private let settings = SDLocked(wrappedValue: SDWebImageManagerSettings())

    /// Guards `_failedURLs`.
    private let failedURLsLock = NSLock()
    private var _failedURLs = Set<URL>()

    /// Guards `_runningOperations` (keyed by identity, as the original's `NSMutableSet` of operations).
    private let runningOperationsLock = NSLock()
    private var _runningOperations: [ObjectIdentifier: SDWebImageCombinedOperation] = [:]

    /// A manager on the shared cache and the shared downloader (the original's `-init`).
    public convenience init() {
        self.init(cache: .shared, downloader: .shared)
    }

    /// A manager on the given cache and downloader (MGR-01).
    public convenience init(cache: SDImageCache, downloader: SDWebImageDownloader) {
        self.init(cache: cache, downloader: downloader, isShared: false)
    }

    private init(cache: SDImageCache, downloader: SDWebImageDownloader, isShared: Bool) {
        imageCache = cache
        imageDownloader = downloader
        isSharedManager = isShared
    }

    // MARK: Settings

    /// The delegate (held weakly, as the original does).
    public var delegate: (any SDWebImageManagerDelegate)? {
        get { settings[\.delegate] }
        set { settings[\.delegate] = newValue }
    }

    /// Turns URLs into cache keys, for example to drop a changing query (MGR-02). nil: the absolute string.
    public var cacheKeyFilter: SDWebImageCacheKeyFilterBlock? {
        get { settings[\.cacheKeyFilter] }
        set { settings[\.cacheKeyFilter] = newValue }
    }

    /// Chooses the bytes written to disk for a downloaded image; it runs on a global queue (4.4.8).
    public var cacheSerializer: SDWebImageCacheSerializerBlock? {
        get { settings[\.cacheSerializer] }
        set { settings[\.cacheSerializer] = newValue }
    }

    /// The queue completions are delivered on; `.main` by default, as in the original (port addition, see the
    /// type's documentation). Set the cache's `completionQueue` to the same queue so disk hits arrive there too.
    public var completionQueue: DispatchQueue {
        get { settings[\.completionQueue] }
        set { settings[\.completionQueue] = newValue }
    }

    // MARK: Failed URLs and running operations

    /// The URLs that failed and are skipped unless `RetryFailed` is given (FAQ-17), a copy.
    public var failedURLs: Set<URL> { failedURLsLock.withLock { _failedURLs } }

    /// Whether `url` is on the failed-URL list, which 4.x and 5.x loads of this manager share.
    func isFailedURL(_ url: URL) -> Bool {
        failedURLsLock.withLock { _failedURLs.contains(url) }
    }

    /// Puts `url` on the failed-URL list (both flows add here).
    func addFailedURL(_ url: URL) {
        _ = failedURLsLock.withLock { _failedURLs.insert(url) }
    }

    /// Takes one URL off the failed-URL list (5.x's `removeFailedURL:`, 5.8.0 on; 4.4.8 has no public method, only a
    /// `RetryFailed` load takes its URL off, at each download callback without an error, a partial image included).
    public func removeFailedURL(_ url: URL) {
        _ = failedURLsLock.withLock { _failedURLs.remove(url) }
    }

    /// Empties the failed-URL list (5.x's `removeAllFailedURLs`, 5.8.0 on).
    public func removeAllFailedURLs() {
        failedURLsLock.withLock { _failedURLs.removeAll() }
    }

    /// The loads that have not finished yet, a copy.
    public var runningOperations: [SDWebImageCombinedOperation] {
        runningOperationsLock.withLock { Array(_runningOperations.values) }
    }

    /// Whether any load is running (MGR-12).
    public var isRunning: Bool { runningOperationsLock.withLock { !_runningOperations.isEmpty } }

    /// Cancels every running load (MGR-12). Each cancel removes its load from `runningOperations`.
    public func cancelAll() {
        for operation in runningOperations { operation.cancel() }
    }

    func safelyRemoveOperationFromRunning(_ operation: SDWebImageCombinedOperation?) {
        guard let operation else { return }
        _ = runningOperationsLock.withLock { _runningOperations.removeValue(forKey: ObjectIdentifier(operation)) }
    }

    /// Lists a load as running; 4.x and 5.x loads share the set, so `cancelAll` and `isRunning` see both.
    func addRunningOperation(_ operation: SDWebImageCombinedOperation) {
        runningOperationsLock.withLock { _runningOperations[ObjectIdentifier(operation)] = operation }
    }

    // MARK: Cache helpers (MGR-02, MGR-12)

    /// The cache key of a URL: "" for nil, else `cacheKeyFilter(url)` when set, else the absolute string.
    public func cacheKey(for url: URL?) -> String? {
        guard let url else { return "" }
        if let filter = cacheKeyFilter { return filter(url) }
        return url.absoluteString
    }

    /// Stores `image` under the URL's key, in memory and on disk; nothing for a nil image or URL.
    public func saveImageToCache(_ image: UIImage?, for url: URL?) {
        guard let image, let url else { return }
        imageCache.store(image, forKey: cacheKey(for: url), toDisk: true, completion: nil)
    }

    /// Whether the URL's image is in the memory cache, or else on disk. The answer arrives on `completionQueue`
    /// for a memory hit, and on the cache's `completionQueue` otherwise.
    public func cachedImageExists(for url: URL?, completion: SDWebImageCheckCacheCompletionBlock?) {
        let key = cacheKey(for: url)
        if imageCache.imageFromMemoryCache(forKey: key) != nil {
            completionQueue.async { completion?(true) }
            return
        }
        imageCache.diskImageExists(withKey: key) { isInDiskCache in completion?(isInDiskCache) }
    }

    /// Whether the URL's image is on disk; the answer arrives on the cache's `completionQueue`.
    public func diskImageExists(for url: URL?, completion: SDWebImageCheckCacheCompletionBlock?) {
        imageCache.diskImageExists(withKey: cacheKey(for: url)) { isInDiskCache in completion?(isInDiskCache) }
    }

    // MARK: Rules, exposed so they can be checked one by one

    /// The original's default rule for blacklisting a failed URL (MGR-06; a delegate's `shouldBlockFailedURL` wins):
    /// every error except the eight that say the network, not the URL, was at fault; the code only, not the domain.
    public static func shouldBlockFailedURL(with error: Error) -> Bool {
        let notBlocked: Set<Int> = [
            URLError.notConnectedToInternet.rawValue, URLError.cancelled.rawValue, URLError.timedOut.rawValue,
            URLError.internationalRoamingOff.rawValue, URLError.dataNotAllowed.rawValue,
            URLError.cannotFindHost.rawValue, URLError.cannotConnectToHost.rawValue,
            URLError.networkConnectionLost.rawValue,
        ]
        return !notBlocked.contains((error as NSError).code)
    }

    /// The downloader options a load asks for (MGR-05): one to one, `RefreshCached` → `UseNSURLCache`; when a
    /// cached image is being refreshed, no progressive download and `IgnoreCachedResponse`.
    public static func downloaderOptions(
        for options: SDWebImageOptions,
        refreshingCachedImage: Bool
    ) -> SDWebImageDownloaderOptions {
        let mapping: [(SDWebImageOptions, SDWebImageDownloaderOptions)] = [
            (.lowPriority, .lowPriority),
            (.progressiveDownload, .progressiveDownload),
            (.refreshCached, .useNSURLCache),
            (.continueInBackground, .continueInBackground),
            (.handleCookies, .handleCookies),
            (.allowInvalidSSLCertificates, .allowInvalidSSLCertificates),
            (.highPriority, .highPriority),
            (.scaleDownLargeImages, .scaleDownLargeImages),
        ]
        var result: SDWebImageDownloaderOptions = []
        for (option, downloaderOption) in mapping where options.contains(option) {
            result.insert(downloaderOption)
        }
        if refreshingCachedImage {
            result.remove(.progressiveDownload)
            result.insert(.ignoreCachedResponse)
        }
        return result
    }

    /// The cache query options a load asks for.
    public static func cacheOptions(for options: SDWebImageOptions) -> SDImageCacheOptions {
        var result: SDImageCacheOptions = []
        if options.contains(.queryDataWhenInMemory) { result.insert(.queryDataWhenInMemory) }
        if options.contains(.queryDiskSync) { result.insert(.queryDiskSync) }
        if options.contains(.scaleDownLargeImages) { result.insert(.scaleDownLargeImages) }
        return result
    }

    // MARK: Loading

    /// Loads a String URL: it is converted with `URL(string:)`, as the original converts an `NSString`
    /// passed where an `NSURL` was expected (FAQ-10).
    @_disfavoredOverload
    @discardableResult
    public func loadImage(
        with urlString: String?, options: SDWebImageOptions = [],
        progress: SDWebImageDownloaderProgressBlock? = nil,
        completed: @escaping SDInternalCompletionBlock
    ) -> SDWebImageCombinedOperation {
        loadImage(
            with: urlString.flatMap { URL(string: $0) }, options: options, progress: progress, completed: completed)
    }

    /// Loads from a value of any type, as the Objective-C method accepts any object: a `URL` is used, a `String`
    /// is converted, anything else (an `NSNull`, a number) becomes nil and completes with `FileDoesNotExist`
    /// instead of crashing (FAQ-10).
    @_disfavoredOverload
    @discardableResult
    public func loadImage(
        withAnyURL value: Any?, options: SDWebImageOptions = [],
        progress: SDWebImageDownloaderProgressBlock? = nil,
        completed: @escaping SDInternalCompletionBlock
    ) -> SDWebImageCombinedOperation {
        let url: URL?
        switch value {
        case let value as URL: url = value
        case let value as String: url = URL(string: value)
        default: url = nil
        }
        return loadImage(with: url, options: options, progress: progress, completed: completed)
    }

    /// Loads the image for `url`: from memory, else from disk, else by downloading it (MGR-03 … MGR-10).
    ///
    /// - nil or empty URL, or a URL on the failed list without `RetryFailed`: completion with
    ///   `NSURLErrorDomain` / `NSURLErrorFileDoesNotExist`, finished, at once (on `completionQueue`).
    /// - Found in the cache and no refresh wanted: completion with the image and its cache type.
    /// - Missed (or `RefreshCached`) and the delegate allows it, and not `FromCacheOnly`: download, store,
    ///   complete with cache type none. With `RefreshCached` the cached image is delivered first.
    /// - Missed and no download allowed: completion with nil image and nil error, finished.
    @discardableResult
    public func loadImage(
        with url: URL?, options: SDWebImageOptions = [],
        progress: SDWebImageDownloaderProgressBlock? = nil,
        completed: @escaping SDInternalCompletionBlock
    ) -> SDWebImageCombinedOperation {
        let operation = SDWebImageCombinedOperation(manager: self)
        let isFailedURL = url.map(isFailedURL) ?? false
        SDWebImageTrace.record(
            .managerLoad, key: url?.absoluteString,
            isFailedURL ? "on the failed-URL list" : "options \(options.rawValue)")

        guard let url, !url.absoluteString.isEmpty, options.contains(.retryFailed) || !isFailedURL else {
            callCompletion(
                for: operation, completed, image: nil, data: nil,
                error: NSError(domain: NSURLErrorDomain, code: URLError.fileDoesNotExist.rawValue),
                cacheType: .none, finished: true, url: url)
            return operation
        }

        addRunningOperation(operation)
        let key = cacheKey(for: url)
        operation.cacheOperation = imageCache.queryCacheOperation(forKey: key, options: Self.cacheOptions(for: options))
        {
            [weak operation] cachedImage, cachedData, cacheType in
            guard let operation, !operation.isCancelled else {
                self.safelyRemoveOperationFromRunning(operation)
                return
            }
            self.continueLoad(
                operation, url: url, key: key, options: options, progress: progress, completed: completed,
                cachedImage: cachedImage, cachedData: cachedData, cacheType: cacheType)
        }
        return operation
    }

    /// What happens after the cache answered: download, or deliver what the cache had.
    private func continueLoad(
        _ operation: SDWebImageCombinedOperation, url: URL, key: String?, options: SDWebImageOptions,
        progress: SDWebImageDownloaderProgressBlock?, completed: @escaping SDInternalCompletionBlock,
        cachedImage: UIImage?, cachedData: Data?, cacheType: SDImageCacheType
    ) {
        let delegate = self.delegate
        let shouldDownload =
            !options.contains(.fromCacheOnly)
            && (cachedImage == nil || options.contains(.refreshCached))
            && (delegate?.imageManager(self, shouldDownloadImageFor: url) ?? true)

        guard shouldDownload else {
            // Found and no refresh: the cached image. Missed and no download allowed: nothing, but finished.
            callCompletion(
                for: operation, completed, image: cachedImage, data: cachedData, error: nil,
                cacheType: cachedImage == nil ? .none : cacheType, finished: true, url: url)
            safelyRemoveOperationFromRunning(operation)
            return
        }

        let refreshingCachedImage = cachedImage != nil && options.contains(.refreshCached)
        if refreshingCachedImage {
            // Deliver what the cache has now, then ask the server (through the protocol cache) whether it changed.
            callCompletion(
                for: operation, completed, image: cachedImage, data: cachedData, error: nil,
                cacheType: cacheType, finished: true, url: url)
        }

        let downloaderOptions = Self.downloaderOptions(for: options, refreshingCachedImage: refreshingCachedImage)
        let token = imageDownloader.downloadImage(with: url, options: downloaderOptions, progress: progress) {
            [weak operation] downloadedImage, downloadedData, error, finished in
            // A cancelled load does nothing: calling it could overwrite a newer load's result (#699).
            guard let operation, !operation.isCancelled else { return }
            if let error {
                // As 4.4.8 (whose default operation calls back on the main queue): the completion first (at once,
                // being on the completion queue already), then the blacklist, then leaving `runningOperations` below.
                self.callCompletion(
                    for: operation, completed, image: nil, data: nil, error: error,
                    cacheType: .none, finished: true, url: url)
                self.blockFailedURLIfNeeded(url, error: error)
            } else {
                self.handleDownloaded(
                    downloadedImage, data: downloadedData, finished: finished, operation: operation,
                    url: url, key: key, options: options, completed: completed,
                    refreshingCachedImage: refreshingCachedImage)
            }
            if finished {
                self.safelyRemoveOperationFromRunning(operation)
            }
        }
        operation.downloadToken = token
        let downloader = imageDownloader
        // Set last: if the load was cancelled meanwhile, this runs at once and cancels the download.
        operation.cancelBlock = { downloader.cancel(token) }
    }

    private func blockFailedURLIfNeeded(_ url: URL, error: Error) {
        let shouldBlock =
            delegate?.imageManager(self, shouldBlockFailedURL: url, withError: error)
            ?? Self.shouldBlockFailedURL(with: error)
        if shouldBlock {
            addFailedURL(url)
        }
    }

    /// A download succeeded (or the protocol cache answered): transform, store, deliver (MGR-07).
    private func handleDownloaded(
        _ downloadedImage: UIImage?, data downloadedData: Data?, finished: Bool,
        operation: SDWebImageCombinedOperation, url: URL, key: String?,
        options: SDWebImageOptions, completed: @escaping SDInternalCompletionBlock,
        refreshingCachedImage: Bool
    ) {
        if options.contains(.retryFailed) {
            removeFailedURL(url)
        }
        let cacheOnDisk = !options.contains(.cacheMemoryOnly)
        var image = downloadedImage
        // The downloader scaled the image with the shared manager's key; this manager's filter may say another scale.
        if !isSharedManager, cacheKeyFilter != nil, let unscaled = image {
            image = SDScaledImageForKey(key, unscaled)
        }
        let serializer = cacheSerializer
        // Only a delegate that implements the transform gets the hop (4.4.8's respondsToSelector:, MGR-13).
        let delegate = self.delegate as? any SDWebImageManagerTransformingDelegate

        if refreshingCachedImage && image == nil {
            // The refresh was answered from the protocol cache (304): the cached image is current. Nothing to call.
            return
        }
        if let image, image.images == nil || options.contains(.transformAnimatedImage), let delegate {
            DispatchQueue.global(qos: .userInitiated).async {
                let transformed = delegate.imageManager(self, transformDownloadedImage: image, withURL: url)
                if let transformed, finished {
                    // A new image no longer matches the downloaded bytes: let the cache encode it again.
                    let keptData = transformed === image ? downloadedData : nil
                    let cacheData = serializer.map { $0(transformed, keptData, url) } ?? keptData
                    self.imageCache.store(
                        transformed, imageData: cacheData, forKey: key, toDisk: cacheOnDisk, completion: nil)
                }
                self.callCompletion(
                    for: operation, completed, image: transformed, data: downloadedData, error: nil,
                    cacheType: .none, finished: finished, url: url)
            }
            return
        }
        if let image, finished {
            if let serializer {
                DispatchQueue.global(qos: .userInitiated).async {
                    let cacheData = serializer(image, downloadedData, url)
                    self.imageCache.store(
                        image, imageData: cacheData, forKey: key, toDisk: cacheOnDisk, completion: nil)
                }
            } else {
                imageCache.store(image, imageData: downloadedData, forKey: key, toDisk: cacheOnDisk, completion: nil)
            }
        }
        callCompletion(
            for: operation, completed, image: image, data: downloadedData, error: nil,
            cacheType: .none, finished: finished, url: url)
    }

    /// Delivers on `completionQueue` unless the load is cancelled by then (MGR-10).
    private func callCompletion(
        for operation: SDWebImageCombinedOperation, _ completion: @escaping SDInternalCompletionBlock,
        image: UIImage?, data: Data?, error: Error?, cacheType: SDImageCacheType,
        finished: Bool, url: URL?
    ) {
        dispatch_queue_async_safe(completionQueue) {
            operation.deliverUnlessCancelled {
                SDWebImageTrace.record(
                    .managerCompletion, key: url?.absoluteString,
                    Self.describeCompletion(image: image, error: error, cacheType: cacheType, finished: finished))
                completion(image, data, error, cacheType, finished, url)
            }
        }
    }

    private static func describeCompletion(image: UIImage?, error: Error?, cacheType: SDImageCacheType, finished: Bool)
        -> String
    {
        if let error { return "error \((error as NSError).domain) \((error as NSError).code)" }
        guard let image else { return "no image" + (finished ? "" : ", partial") }
        return "\(image.pixelWidth)x\(image.pixelHeight) from \(cacheType)" + (finished ? "" : ", partial")
    }
}
