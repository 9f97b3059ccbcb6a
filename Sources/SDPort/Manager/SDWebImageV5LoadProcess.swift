import Foundation

/// One 5.x-style load, step by step: cache query (transformed key, then original key), loader, transform, store,
/// completion. `SDWebImageManager.loadImage(with:options:context:progress:completed:)` makes one and starts it.
///
/// Ports the private steps of `SDWebImageManager.m` (5.21.5; 5.0.0 has only the cache, download and store steps):
/// `callCacheProcessForOperation`, `callOriginalCacheProcessForOperation`, `callDownloadProcessForOperation`,
/// `callTransformProcessForOperation`, `callStoreOriginCacheProcessForOperation` and
/// `callStoreCacheProcessForOperation`. Differences are listed on that method. Every stored property is immutable
/// (`ended` is a lock); transforms and stores of one load run in order on `transformQueue`, so a progressive load's
/// partial images never overtake its final one.
///
/// Cancelling (V5-06): the completion is then called once more, with `SDWebImageV5Error.cancelled` (2002), unless the
/// load had already called its final completion; 4.4.8 (and the port's 4.x flow) stays silent, and so does 5.0.x.
/// 5.1.0 and later get there through each step's own cancel check (the cancelled cache query answers with no image
/// when its block runs, at once from 5.13.0's token; the loader reports the cancel); the port registers one cancel
/// handler, so every step gives the same single answer, and keeps its rule that nothing else of the load is
/// delivered once `cancel()` has returned. A deliberate difference:
/// 5.21.5 has no cancel check after the loader, so a load cancelled during its transform or store gets no 2002 and
/// still delivers its image (chapter 08; `test_V506_cancelDuringTheTransformAnswersCancelledNotTheImage`).
///
/// Completions go through `callbackQueue` (V5-12): the context's `SDCallbackQueue`, else the manager's
/// `completionQueue` with `SDCallbackQueue`'s policies. With the main queue, a completion due on the main thread runs
/// at once, as 5.21.5's `SDCallbackQueue.mainQueue` runs it: a memory hit (without `queryMemoryData`) asked for on the
/// main thread answers before `loadImage` returns, and a cancel made on the main thread answers before `cancel()`
/// returns.
///
/// A cancel below the manager (`cancelAllDownloads`, a new session) reaches this load as the loader's 2002 answer
/// (see `SDWebImageDownloader+SDImageLoader`): it is delivered, the URL is not put on the failed-URL list, and the
/// load leaves `runningOperations` (V5-12; 4.4.8 calls nobody and keeps the load listed).
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageManager.m:283` (`-callCacheProcessForOperation:url:options:context:progress:completed:`), `SDWebImage/Core/SDWebImageManager.m:600` (`-callStoreCacheProcessForOperation:url:options:context:image:data:cacheType:finished:completed:`), `SDWebImage/Core/SDWebImageManager.m:396` (`-callDownloadProcessForOperation:url:options:context:cachedImage:cachedData:cacheType:progress:completed:`).
final class SDWebImageV5LoadProcess: Sendable {
    let manager: SDWebImageManager
    let operation: SDWebImageCombinedOperation
    let url: URL
    let options: SDWebImageV5Options
    let context: SDWebImageContext
    let progress: SDImageLoaderProgressBlock?
    let completed: SDInternalCompletionBlock
    let cache: SDImageCache
    let loader: any SDImageLoader
    let callbackQueue: SDCallbackQueue
    /// The cache key with the thumbnail and transformer suffixes.
    let key: String?
    /// The cache key of the untransformed, full-size image.
    let originalKey: String?
    private let transformQueue = DispatchQueue(
        label: "com.hackemist.SDWebImageManager.v5.transform", qos: .userInitiated)
    /// Whether the final completion (or the cancel's answer) was called: whichever comes first takes it.
    private let ended = SDLocked(wrappedValue: false)

    init(
        manager: SDWebImageManager, operation: SDWebImageCombinedOperation, url: URL, options: SDWebImageV5Options,
        context: SDWebImageContext, progress: SDImageLoaderProgressBlock?,
        completed: @escaping SDInternalCompletionBlock
    ) {
        self.manager = manager
        self.operation = operation
        self.url = url
        self.options = options
        self.context = context
        self.progress = progress
        self.completed = completed
        cache = context.imageCache ?? manager.imageCache
        loader = context.imageLoader ?? manager.imageDownloader
        callbackQueue = context.callbackQueue ?? SDCallbackQueue(completionQueue: manager.completionQueue)
        key = manager.cacheKey(for: url, context: context)
        originalKey = manager.originalCacheKey(for: url, context: context)
    }

    // MARK: Cache

    func start() {
        manager.addRunningOperation(operation)
        // Captures no part of the load but what the answer needs: the operation keeps this handler until it is
        // cancelled, and a load that is never cancelled must not be kept alive by it.
        let ended = self.ended
        let completed = self.completed
        let url = self.url
        let queue = callbackQueue
        operation.whenCancelled {
            queue.async {
                guard
                    ended.withLock({ ended in
                        defer { ended = true }
                        return !ended
                    })
                else { return }
                SDWebImageTrace.record(
                    .managerCompletion, key: url.absoluteString, "error \(SDWebImageErrorDomain) 2002 (cancelled)")
                completed(nil, nil, SDWebImageV5Error.cancelled(url), .none, true, url)
            }
        }
        guard !options.contains(.fromLoaderOnly) else {
            download(cachedImage: nil, cachedData: nil, cacheType: .none)
            return
        }
        // A cached thumbnail is already small: decoding it must not apply the thumbnail size again.
        var queryContext = context
        queryContext[.imageThumbnailPixelSize] = nil
        operation.cacheOperation = cache.queryImage(forKey: key, options: options, context: queryContext) {
            image, data, cacheType in
            guard !self.operation.isCancelled else {
                self.manager.safelyRemoveOperationFromRunning(self.operation)
                return
            }
            if image == nil, self.key != self.originalKey {
                self.queryOriginalCache()
            } else {
                self.download(cachedImage: image, cachedData: data, cacheType: cacheType)
            }
        }
    }

    /// The transformed (or thumbnail) key missed: the original may be cached, and transforming it beats loading.
    private func queryOriginalCache() {
        operation.cacheOperation = cache.queryImage(forKey: originalKey, options: options, context: context) {
            image, data, cacheType in
            guard !self.operation.isCancelled else {
                self.manager.safelyRemoveOperationFromRunning(self.operation)
                return
            }
            guard let image else {
                self.download(cachedImage: nil, cachedData: nil, cacheType: .none)
                return
            }
            self.transformAndStore(image, data: data, cacheType: cacheType, finished: true)
            self.manager.safelyRemoveOperationFromRunning(self.operation)
        }
    }

    // MARK: Loader

    private func download(cachedImage: UIImage?, cachedData: Data?, cacheType: SDImageCacheType) {
        // The query is over: the combined operation lets go of it (V5-07, as 5.13.2 and later do; 4.4.8 and earlier
        // 5.x keep it unless the load is cancelled).
        operation.cacheOperation = nil
        let shouldDownload =
            !options.contains(.fromCacheOnly)
            && (cachedImage == nil || options.contains(.refreshCached))
            && (manager.delegate?.imageManager(manager, shouldDownloadImageFor: url) ?? true)
            && loader.canRequestImage(for: url)
        guard shouldDownload else {
            // Found (no refresh): the cached image. Missed and not allowed to load: no image, no error (as 5.x).
            deliver(
                cachedImage, data: cachedData, error: nil, cacheType: cachedImage == nil ? .none : cacheType,
                finished: true)
            manager.safelyRemoveOperationFromRunning(operation)
            return
        }
        var loaderContext = context
        let refreshing = cachedImage != nil
        if let cachedImage {
            // RefreshCached: deliver what the cache has now, then let the loader revalidate it.
            deliver(cachedImage, data: cachedData, error: nil, cacheType: cacheType, finished: true, endsLoad: false)
            loaderContext[.loaderCachedImage] = cachedImage
        }
        // The loader's operation, until the load ends. The loader's operation holds this completion (the
        // downloader's token holds its callbacks), which holds this process, which holds the combined operation,
        // whose cancel block would hold the loader's operation for ever: a cycle that kept every finished load,
        // its image and its data alive. Letting go of it when the load ends (final completion or cancel) breaks
        // the cycle; a cancel after the end has nothing left to cancel.
        let loaderHandle = SDLocked(wrappedValue: LoaderHandle())
        let loaderOperation = loader.requestImage(
            with: url, options: options, context: loaderContext,
            progress: progress
        ) { image, data, error, finished in
            if finished || error != nil { loaderHandle.withLock { $0 = LoaderHandle(operation: nil, ended: true) } }
            guard !self.operation.isCancelled else { return }
            if let error {
                // Listed before the completion is queued (5.x queues first), so the completion already sees it.
                self.blockFailedURLIfNeeded(error)
                self.deliver(nil, data: nil, error: error, cacheType: .none, finished: true)
            } else if refreshing && image == nil {
                // The protocol cache answered the refresh (304): the cached image is current, nothing to call, and
                // a later cancel has nothing to answer.
                self.ended.wrappedValue = true
            } else {
                if self.options.contains(.retryFailed) {
                    self.manager.removeFailedURL(self.url)
                }
                self.transformAndStore(image, data: data, cacheType: .none, finished: finished)
            }
            if finished || error != nil {
                self.manager.safelyRemoveOperationFromRunning(self.operation)
            }
        }
        loaderHandle.withLock { if !$0.ended { $0.operation = loaderOperation } }
        // Cancelling ends the load too: the handle lets go before the loader's operation is cancelled (a cancelled
        // download drops its callbacks without calling them, so no final completion would clear it).
        operation.cancelBlock = {
            loaderHandle.withLock { handle -> (any SDWebImageOperation)? in
                defer { handle = LoaderHandle(operation: nil, ended: true) }
                return handle.operation
            }?.cancel()
        }
    }

    /// The loader's operation while the load runs; `ended` once its final completion came (it may come before
    /// `requestImage` returns). Guarded by the `SDLocked` it lives in.
    private struct LoaderHandle: Sendable {
        var operation: (any SDWebImageOperation)?
        var ended = false
    }

    private func blockFailedURLIfNeeded(_ error: Error) {
        let nsError = error as NSError
        let cancelled =
            (nsError.domain == NSURLErrorDomain && nsError.code == NSURLErrorCancelled)
            || (nsError.domain == SDWebImageErrorDomain && nsError.code == SDWebImageV5Error.cancelled(nil).errorCode)
        guard !cancelled else { return }
        let shouldBlock =
            manager.delegate.map { $0.imageManager(manager, shouldBlockFailedURL: url, withError: error) }
            ?? loader.shouldBlockFailedURL(with: url, error: error)
        if shouldBlock {
            manager.addFailedURL(url)
        }
    }

    // MARK: Transform and store

    /// The transform, store-original and store steps of 5.x (5.14.0 on) in one: the original image goes under the
    /// original key (`originalStoreCacheType`, without disk when it came from disk), the result under the load's key
    /// (`storeCacheType`), then the completion. A thumbnail (V5-05) is not the full-size image: no image goes under the
    /// original key, only the downloaded full-size bytes (with `originalStoreCacheType`, so on disk by default, as
    /// 5.21.5 passes its original data on); the thumbnail is stored and delivered without them (nil data), so the
    /// cache encodes it for the disk. A transformed image is stored and delivered without data too.
    private func transformAndStore(_ image: UIImage?, data: Data?, cacheType: SDImageCacheType, finished: Bool) {
        transformQueue.async {
            guard !self.operation.isCancelled else { return }
            let isThumbnail = image != nil && self.decodesThumbnail
            let originalImage = isThumbnail ? nil : image
            var result = image
            var resultData = isThumbnail ? nil : data
            // As 5.21.5: when the transformer gives nothing, the untransformed image is stored under the transformed
            // key (5.0.0 stored nothing and delivered nil).
            if let image, let transformer = self.context.imageTransformer,
                image.images == nil || self.options.contains(.transformAnimatedImage),
                let transformed = transformer.transformedImage(with: image, forKey: self.key ?? "")
            {
                result = transformed
                resultData = nil
            }
            var originalType = self.originalStoreCacheType
            if cacheType == .disk {
                // Its data is on disk already: only memory is left to fill.
                originalType = originalType == .all ? .memory : (originalType == .disk ? .none : originalType)
            }
            var storeType = self.storeCacheType
            if self.key == self.originalKey, let result, result === originalImage {
                // One image under one key: 5.x (5.14.0 on) stores it twice (as the original, then as the result), which
                // leaves what one store with both types leaves. So, as in 5.14.0 and later, `storeCacheType` `.memory`
                // alone still writes the disk unless `originalStoreCacheType` says otherwise (V5-09).
                storeType = Self.union(storeType, originalType)
            } else {
                self.store(originalImage, data: data, forKey: self.originalKey, type: originalType, finished: finished)
            }
            self.store(result, data: resultData, forKey: self.key, type: storeType, finished: finished)
            self.deliver(result, data: resultData, error: nil, cacheType: cacheType, finished: finished)
        }
    }

    /// Whether images of this load are decoded as thumbnails. 5.x (5.14.0 on) asks the image (`sd_isThumbnail`, from
    /// its decode options); the port's images carry none, and those options come from this context.
    private var decodesThumbnail: Bool {
        guard let size = context.thumbnailPixelSize else { return false }
        return size.width > 0 && size.height > 0
    }

    private static func union(_ a: SDWebImageV5CacheType, _ b: SDWebImageV5CacheType) -> SDWebImageV5CacheType {
        let memory = a.includesMemory || b.includesMemory
        let disk = a.includesDisk || b.includesDisk
        return memory ? (disk ? .all : .memory) : (disk ? .disk : .none)
    }

    private var storeCacheType: SDWebImageV5CacheType {
        context.value(.storeCacheType, as: SDWebImageV5CacheType.self) ?? .all
    }

    private var originalStoreCacheType: SDWebImageV5CacheType {
        context.value(.originalStoreCacheType, as: SDWebImageV5CacheType.self) ?? .disk
    }

    /// Stores a finished image, or data without one (a thumbnail's full-size bytes); the serializer (context's, else
    /// the manager's) chooses the disk bytes of an image.
    private func store(_ image: UIImage?, data: Data?, forKey key: String?, type: SDWebImageV5CacheType, finished: Bool)
    {
        guard finished, let key, image != nil || data != nil else { return }
        var cacheData = data
        if type.includesDisk, let image {
            if let serializer = context.cacheSerializer {
                cacheData = serializer.cacheData(with: image, originalData: data, imageURL: url)
            } else if let serializer = manager.cacheSerializer {
                cacheData = serializer(image, data, url)
            }
        }
        cache.storeImage(image, imageData: cacheData, forKey: key, cacheType: type, completion: nil)
    }

    // MARK: Completion

    /// Queues one completion. A finished one ends the load (`endsLoad`, except the cached image a refresh
    /// delivers first) unless the cancel's answer came first.
    func deliver(
        _ image: UIImage?, data: Data?, error: Error?, cacheType: SDImageCacheType, finished: Bool,
        endsLoad: Bool = true
    ) {
        let operation = self.operation
        let completed = self.completed
        let url = self.url
        let ended = self.ended
        callbackQueue.async {
            operation.deliverUnlessCancelled {
                if finished && endsLoad {
                    guard
                        ended.withLock({ ended in
                            defer { ended = true }
                            return !ended
                        })
                    else { return }
                }
                SDWebImageTrace.record(
                    .managerCompletion, key: url.absoluteString,
                    error.map { "error \(($0 as NSError).domain) \(($0 as NSError).code)" }
                        ?? image.map { "\($0.pixelWidth)x\($0.pixelHeight) from \(cacheType)" }
                        ?? "no image")
                completed(image, data, error, cacheType, finished, url)
            }
        }
    }
}
