import Foundation

/// Storing (CACHE-04, CACHE-05, FAQ-06).
///
/// Ports the store methods of `SDImageCache.m` (4.4.8). 5.x splits memory and disk into `SDMemoryCache` and
/// `SDDiskCache` and adds `storeImageToMemory:forKey:` and a store by cache type (5.7.0 adds a query by cache
/// type); the rules here are 4.4.8's.
/// At tag 4.4.8: `SDWebImage/SDImageCache.m:284` (`-storeImage:imageData:forKey:toDisk:completion:`), `SDWebImage/SDImageCache.m:331` (`-storeImageDataToDisk:forKey:`).
/// At tag 5.21.5: `SDWebImage/Core/SDImageCache.m:236` (`-storeImage:imageData:forKey:options:context:cacheType:completion:`).
extension SDImageCache {
    /// Stores `image` in memory and on disk (encoded, since no data is given).
    public func store(_ image: UIImage?, forKey key: String?, completion: SDWebImageNoParamsBlock?) {
        store(image, imageData: nil, forKey: key, toDisk: true, completion: completion)
    }

    /// Stores `image` in memory, and on disk (encoded) when `toDisk`.
    public func store(_ image: UIImage?, forKey key: String?, toDisk: Bool, completion: SDWebImageNoParamsBlock?) {
        store(image, imageData: nil, forKey: key, toDisk: toDisk, completion: completion)
    }

    /// Stores `image` in memory (unless `config.shouldCacheImagesInMemory` is off) with cost
    /// `image.sd_memoryCost`, and when `toDisk`, writes `imageData` — or, when it is nil, the image encoded as
    /// PNG if it has alpha, else JPEG — asynchronously on the io queue.
    ///
    /// A nil image or key calls `completion` at once and stores nothing. Without `toDisk` the completion runs
    /// at once, on the caller's thread; after a disk write it runs on `completionQueue`. A failed write (or an
    /// image no coder can encode) leaves no file and is logged; the completion still runs.
    public func store(
        _ image: UIImage?, imageData: Data?, forKey key: String?, toDisk: Bool,
        completion: SDWebImageNoParamsBlock?
    ) {
        guard let image, let key else {
            completion?()
            return
        }
        if config.shouldCacheImagesInMemory {
            memCache.setObject(image, forKey: key, cost: Int(clamping: image.sd_memoryCost))
        }
        SDWebImageTrace.record(.store, key: key, toDisk ? "memory and disk" : "memory only")
        guard toDisk else {
            completion?()
            return
        }
        ioQueue.async {
            let start = SDWebImageTrace.workStart()  // for a timeline's io queue lane (nil: nobody asked)
            defer { SDWebImageTrace.work("disk write", serving: .store, key: key, since: start) }
            var data = imageData
            if data == nil {
                // Without data there is no format to keep: alpha needs PNG, anything else goes to JPEG.
                let format: SDImageFormat = image.hasAlpha ? .png : .jpeg
                data = SDWebImageCodersManager.shared.encodedData(with: image, format: format)
                if data == nil {
                    SDImageCache.logger.error("store: no coder could encode the image for key \(key) as \(format)")
                }
            }
            if let data {
                self.storeImageDataLoggingErrors(data, forKey: key)
            }
            if let completion { self.callBack(completion) }
        }
    }

    /// Writes `imageData` as `key`'s file, synchronously, creating the directory when missing. Nil data or key
    /// does nothing. Errors are logged; `writeImageDataToDisk` throws them.
    ///
    /// Ports `-storeImageDataToDisk:forKey:`: like 4.4.8, it may be called from any thread outside the io queue
    /// and waits on the io queue for the write, so the write stays in order with the cache's other disk work.
    /// From the io queue itself it writes at once: 4.4.8's `dispatch_sync` onto its own queue deadlocks there
    /// (`test_CACHE05_storeImageDataToDiskFromTheIOQueueWritesAtOnce`).
    public func storeImageData(toDisk imageData: Data?, forKey key: String?) {
        guard let imageData, let key else { return }
        syncOnIOQueue { storeImageDataLoggingErrors(imageData, forKey: key) }
    }

    /// Port addition: `storeImageData(toDisk:forKey:)` for any queue, throwing `SDImageCacheError` when the
    /// directory cannot be created or the file cannot be written. Nothing is left under the cache name then.
    public func writeImageDataToDisk(_ imageData: Data, forKey key: String) throws {
        try syncOnIOQueue { try storeImageDataOnIOQueue(imageData, forKey: key) }
    }

    /// Stores `image` in memory only, with its memory cost (a port convenience: `storeImageToMemory`
    /// appears in 5.x; 4.4.8 spells it `store(image, forKey:, toDisk: false)`).
    public func storeImage(toMemory image: UIImage?, forKey key: String?) {
        guard let image, let key, config.shouldCacheImagesInMemory else { return }
        memCache.setObject(image, forKey: key, cost: Int(clamping: image.sd_memoryCost))
    }

    // MARK: On the io queue

    private func storeImageDataLoggingErrors(_ data: Data, forKey key: String) {
        do {
            try storeImageDataOnIOQueue(data, forKey: key)
        } catch {
            SDImageCache.logger.error("\(error.localizedDescription)")
        }
    }

    /// Ports `-_storeImageDataToDisk:forKey:`; call on the io queue.
    func storeImageDataOnIOQueue(_ data: Data, forKey key: String) throws {
        let fileName = SDImageCache.cachedFileName(forKey: key)
        let path = SDImageCache.join(diskCachePath, fileName)
        do {
            try AtomicFileWriter.write(data, toDirectory: diskCachePath, fileName: fileName)
        } catch let failure as AtomicFileWriter.Failure where failure.isMissingDirectory {
            // First write, or the directory was deleted under us: create it and try once more.
            do {
                try fileManager.createDirectory(atPath: diskCachePath, withIntermediateDirectories: true)
            } catch {
                throw SDImageCacheError.directoryUnavailable(path: diskCachePath, reason: Self.describe(error))
            }
            do {
                try AtomicFileWriter.write(data, toDirectory: diskCachePath, fileName: fileName)
            } catch {
                throw SDImageCacheError.writeFailed(path: path, reason: Self.describe(error))
            }
        } catch {
            throw SDImageCacheError.writeFailed(path: path, reason: Self.describe(error))
        }
    }

    /// The POSIX reason inside a Foundation file error, or its description.
    static func describe(_ error: Error) -> String {
        if let failure = error as? AtomicFileWriter.Failure { return failure.reason }
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return nsError.localizedDescription
    }
}
