import Foundation

/// The cache face of the 5.x flow: a query that honours the 5.x options and context, and a store that takes a
/// 5.x cache type (V5-01, V5-04).
///
/// Ports `-[SDImageCache queryCacheOperationForKey:options:context:done:]` and
/// `-storeImage:imageData:forKey:cacheType:completion:` of `SDImageCache.m` (5.21.5). The disk search is the one query
/// core both queries share (`performQuery`). Differences from the 4.4.8 query
/// (`queryCacheOperation(forKey:options:done:)`): disk data is decoded with `SDImageCacheDecodeImageData` (context
/// coder, `decodeFirstFrameOnly`, scale factor, `avoidDecodeImage`) rather than always by the shared coders,
/// `queryMemoryDataSync` exists, and `decodeFirstFrameOnly` also turns an animated image found in memory into a still
/// one.
/// At tag 5.21.5: `SDWebImage/Core/SDImageCache.m:605` (`-queryCacheOperationForKey:options:context:done:`), `SDWebImage/Core/SDImageCache.m:48` (`-cancel`), `SDWebImage/Core/SDCallbackQueue.m:18` (`SDSafeAsyncMainThread`), `SDWebImage/Core/SDImageCache.m:957` (`-storeImage:imageData:forKey:cacheType:completion:`).
extension SDImageCache {
    /// Looks `key` up in memory, then on disk.
    ///
    /// - Memory hit without `queryMemoryData`: `done(image, nil, .memory)` at once, on the caller's thread; returns
    ///   nil.
    /// - Otherwise the disk is read on the io queue: synchronously with `queryMemoryDataSync` after a memory hit or
    ///   `queryDiskDataSync` after a miss (the caller waits, and `done` runs on the caller's thread before this
    ///   returns, outside the io queue, as 5.12.4 and later do; 5.0–5.12.3 run it inside); else asynchronously,
    ///   `done` on `completionQueue`.
    ///   A memory hit reports the memory image with the disk data (`.memory`); a disk hit is decoded, put in memory
    ///   (when `config.shouldCacheImagesInMemory` and the context's `storeCacheType` allows memory; a thumbnail under
    ///   its own key, see `SDImageCache+Thumbnail`) and reported as `.disk`; an undecodable file as `(nil, data,
    ///   .disk)`, a miss as `.none`. These are 4.4.8's types: from 5.9.0 on, 5.x reports every answer that went to
    ///   the disk as `.disk`, a memory hit with its data and a miss included (`SDImageCache.m` 5.21.5, 726 and 746).
    /// - The returned `SDImageCacheToken` cancels the query: a search that has not started is skipped, and `done`
    ///   is answered with `(nil, nil, .none)` unless it was answered already (V5-07; here the port differs: 5.x's
    ///   token, 5.13.0 on, answers a cancel that comes after the answer too). Asynchronous answers go
    ///   through the context's `callbackQueue`, else `SDCallbackQueue(completionQueue:)`: with the main queue, a
    ///   cancel made on the main thread answers before `cancel()` returns (5.21.0's main-thread policy, V5-12;
    ///   5.13.0–5.20 answered at once only when the cancel ran on the main queue).
    @discardableResult
    public func queryImage(
        forKey key: String?, options: SDWebImageV5Options, context: SDWebImageContext?,
        done: SDCacheQueryCompletedBlock?
    ) -> Operation? {
        guard let key else {
            done?(nil, nil, .none)
            return nil
        }
        var foundImage = imageFromMemoryCache(forKey: key)
        SDWebImageTrace.record(.memoryQuery, key: key, foundImage != nil ? "hit" : "miss")
        if let image = foundImage, options.contains(.decodeFirstFrameOnly), image.images != nil {
            foundImage = SDImagePixelOperations.firstFrame(of: image)
        }
        let memoryImage = foundImage
        if let memoryImage, !options.contains(.queryMemoryData) {
            done?(memoryImage, nil, .memory)
            return nil
        }
        let synchronous =
            memoryImage != nil ? options.contains(.queryMemoryDataSync) : options.contains(.queryDiskDataSync)
        // A synchronous 5.x query searches on the io queue (4.4.8's `.queryDiskSync` reads on the caller's thread)
        // and calls `done` once the search has returned, on the caller's thread. Where 5.x calls `done` changed
        // within 5.x: chapter 08 gives the versions.
        // 5.21 answers through the context's callback queue (5.15.0 on), else the main queue with its main-thread
        // policy (5.21.0 on; earlier 5.x post an answer from the io queue to the main queue, and from 5.13.0 answer
        // a cancel made on the main queue at once); the port's default is this cache's
        // `completionQueue` under the same policies (`SDCallbackQueue`).
        let callbackQueue = context?.callbackQueue ?? SDCallbackQueue(completionQueue: completionQueue)
        let callBack: @Sendable (@escaping @Sendable () -> Void) -> Void = { callbackQueue.async($0) }
        let token = SDImageCacheToken(key: key, done: done, callBack: callBack)
        let search = performQuery(
            forKey: key, memoryImage: memoryImage, execution: synchronous ? .ioQueueWaiting : .ioQueue,
            checksCancelBeforeDone: true,
            memoryKey: { _ in SDImageCache.memoryKey(forDiskImageOf: key, context: context) },
            callBack: callBack,
            decode: { data in
                do {
                    return try SDImageCacheDecodeImageData(
                        data, key, options, context,
                        shouldDecompress: self.config.shouldDecompressImages)
                } catch {
                    SDImageCache.logger.notice(
                        "disk cache file for key \(key) does not decode: \(error.localizedDescription)")
                    return nil
                }
            },
            done: { image, data, cacheType in token.answer(image, data, cacheType) })
        token.attach(search)
        return token
    }

    /// Stores `image` where `cacheType` says: `.memory` in memory only, `.disk` on disk only (`imageData`, or the
    /// image encoded when nil), `.all` both, `.none` nowhere. `completion` runs at once when nothing is written to
    /// disk, else on `completionQueue` after the write. Data without an image goes to disk only (with `.disk` or
    /// `.all`; nowhere with `.memory`), as 5.21.5's store (it needs an image or data, and a key) writes it: a
    /// downloaded thumbnail's full-size bytes (V5-05).
    public func storeImage(
        _ image: UIImage?, imageData: Data?, forKey key: String?, cacheType: SDWebImageV5CacheType,
        completion: SDWebImageNoParamsBlock?
    ) {
        guard let key, image != nil || imageData != nil, cacheType != .none else {
            completion?()
            return
        }
        switch (cacheType, image) {
        case (.all, let image?):
            store(image, imageData: imageData, forKey: key, toDisk: true, completion: completion)
        case (.memory, let image?):
            storeImage(toMemory: image, forKey: key)
            SDWebImageTrace.record(.store, key: key, "memory only")
            completion?()
        case (.disk, _), (.all, nil):
            SDWebImageTrace.record(.store, key: key, "disk only")
            ioQueue.async {
                let data =
                    imageData
                    ?? image.flatMap {
                        SDWebImageCodersManager.shared.encodedData(with: $0, format: .undefined)
                    }
                if let data {
                    do {
                        try self.writeImageDataToDisk(data, forKey: key)
                    } catch {
                        SDImageCache.logger.error("\(error.localizedDescription)")
                    }
                } else {
                    SDImageCache.logger.error("store: no coder could encode the image for key \(key)")
                }
                if let completion { self.callBack(completion) }
            }
        case (.none, _), (.memory, nil):
            completion?()
        }
    }
}
