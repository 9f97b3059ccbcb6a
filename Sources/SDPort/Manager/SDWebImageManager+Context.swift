import Foundation

/// The 5.x entry point of the manager: loads with 5.x option bits and a context (V5-01 … V5-04).
///
/// Ports `-[SDWebImageManager loadImageWithURL:options:context:progress:completed:]`, `-cacheKeyForURL:context:` and
/// `-originalCacheKeyForURL:context:` (`SDWebImageManager.m`, 5.21.5; the two key methods came in 5.5.0 and 5.13.0),
/// built on the public API of the port's 4.4.8 cache, coders and downloader. The steps are in
/// `SDWebImageV5LoadProcess`.
///
/// How it differs from the 4.4.8 `loadImage(with:options:progress:completed:)` of this manager:
/// - Options are `SDWebImageV5Options` (5.x bit values). `fromLoaderOnly` skips the cache; `queryMemoryData`,
///   `queryMemoryDataSync` and `queryDiskDataSync` choose what the query reads and whether it waits;
///   `avoidDecodeImage` and `decodeFirstFrameOnly` change decoding, in the cache and in the loaders.
/// - The context can replace the cache, the loader (default: this manager's downloader, as an `SDImageLoader`),
///   the coder, the key filter and the serializer for one load, and set a transformer, a scale factor, a thumbnail
///   size and where results are stored (`storeCacheType`, default `.all`; `originalStoreCacheType`, default
///   `.disk`). `customManager` hands the whole load to that manager (in 5.x only the views read that key, and
///   5.21.5 deprecates it).
/// - With a transformer (or a thumbnail size) the cache key gets a suffix (`SDTransformedKeyForKey`). A miss under
///   that key queries the original key next and, on a hit, transforms the cached original without loading. A loaded
///   image is transformed on a background queue; the original is stored under the original key
///   (`originalStoreCacheType`) and the result under the transformed key (`storeCacheType`), and delivered with nil
///   data. The delegate's `transformDownloadedImage` is not called (5.x replaced it with transformers).
/// - A nil or empty URL fails with `SDWebImageV5Error.invalidURL` (1000) and a failed URL with `.blackListed` (1003)
///   instead of 4.4.8's `NSURLErrorFileDoesNotExist`. 4.x and 5.x loads share this manager's one failed-URL list
///   (`failedURLs`): a URL a 5.x load failed on is refused to a 4.x load too, and the reverse. 5.x loads list a
///   failure by the loader's rule unless a delegate is set. The URL is listed before the failing completion is
///   queued (5.x queues it first), so code in the completion already sees it on the list.
/// - `fromCacheOnly` with a cache miss completes with no image and no error, finished — as 5.x does, and as 4.4.8's
///   `FromCacheOnly` (or a delegate that refuses the download) does too.
///
/// - Cancelling the returned operation calls the completion once more, with `SDWebImageV5Error.cancelled` (2002),
///   unless the load had finished (V5-06; 4.4.8 calls nothing). The combined operation drops its cache query when
///   the download starts (V5-07).
/// - Thumbnails (V5-05) and store cache types (V5-09) follow 5.x: see `SDWebImageV5LoadProcess.transformAndStore`.
///
/// Completions run through the context's `callbackQueue`, else `completionQueue` with `SDCallbackQueue`'s policies
/// (`SDCallbackQueue(completionQueue:)`: on the main thread, at once). These loads are listed in `runningOperations`
/// like 4.x loads, so `cancelAll()` and `isRunning` see them.
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageManager.m:189` (`-loadImageWithURL:options:context:progress:completed:`), `SDWebImage/Core/SDWebImageManager.m:136` (`-cacheKeyForURL:context:`), `SDWebImage/Core/SDWebImageManager.m:116` (`-originalCacheKeyForURL:context:`).
extension SDWebImageManager {
    /// Loads `url` the 5.x way. See the extension's documentation for the steps and the differences from 4.4.8.
    @discardableResult
    public func loadImage(
        with url: URL?, options: SDWebImageV5Options, context: SDWebImageContext?,
        progress: SDImageLoaderProgressBlock? = nil,
        completed: @escaping SDInternalCompletionBlock
    ) -> SDWebImageCombinedOperation {
        var context = context ?? [:]
        if let custom = context.value(.customManager, as: SDWebImageManager.self), custom !== self {
            context[.customManager] = nil
            return custom.loadImage(
                with: url, options: options, context: context, progress: progress, completed: completed)
        }
        let operation = SDWebImageCombinedOperation(manager: self)
        guard let url, !url.absoluteString.isEmpty else {
            SDWebImageTrace.record(.managerLoad, key: url?.absoluteString, "5.x: invalid URL")
            deliverFailure(SDWebImageV5Error.invalidURL(url), url: url, context: context, completed: completed)
            return operation
        }
        let isFailedURL = self.isFailedURL(url)
        SDWebImageTrace.record(
            .managerLoad, key: url.absoluteString,
            isFailedURL ? "5.x: on the failed-URL list" : "5.x options \(options.rawValue)")
        guard options.contains(.retryFailed) || !isFailedURL else {
            deliverFailure(SDWebImageV5Error.blackListed(url), url: url, context: context, completed: completed)
            return operation
        }
        SDWebImageV5LoadProcess(
            manager: self, operation: operation, url: url, options: options, context: context,
            progress: progress, completed: completed
        ).start()
        return operation
    }

    /// The cache key of a 5.x load: the context's key filter (else this manager's `cacheKeyFilter`, else the
    /// absolute string), then `SDThumbnailedKeyForKey` for a thumbnail size, then `SDTransformedKeyForKey` for a
    /// transformer. "" for a nil URL.
    public func cacheKey(for url: URL?, context: SDWebImageContext?) -> String? {
        guard url != nil else { return "" }
        var key = originalCacheKey(for: url, context: context)
        if let size = context?.thumbnailPixelSize {
            key = SDThumbnailedKeyForKey(key, size, context?.preserveAspectRatio ?? true)
        }
        if let transformer = context?.imageTransformer {
            key = SDTransformedKeyForKey(key, transformer.transformerKey)
        }
        return key
    }

    /// The key of the untransformed, full-size image: the key filter only.
    public func originalCacheKey(for url: URL?, context: SDWebImageContext?) -> String? {
        guard let url else { return "" }
        if let filter = context?.cacheKeyFilter { return filter.cacheKey(for: url) }
        return cacheKey(for: url)
    }

    private func deliverFailure(
        _ error: SDWebImageV5Error, url: URL?, context: SDWebImageContext,
        completed: @escaping SDInternalCompletionBlock
    ) {
        let queue = context.callbackQueue ?? SDCallbackQueue(completionQueue: completionQueue)
        // As 5.1.0 and later, a cancel cannot take this answer back: it is the load's one completion (V5-06).
        queue.async {
            SDWebImageTrace.record(.managerCompletion, key: url?.absoluteString, "error \(error.errorCode)")
            completed(nil, nil, error, .none, true, url)
        }
    }
}
