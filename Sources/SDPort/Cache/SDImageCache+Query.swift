import Foundation
import Glibc

/// Looking images up (CACHE-06 … CACHE-09, FAQ-05, FAQ-11).
///
/// Ports the query and retrieve methods of `SDImageCache.m` (4.4.8).
/// At tag 4.4.8: `SDWebImage/SDImageCache.m:506` (`-queryCacheOperationForKey:options:done:`), `SDWebImage/SDImageCache.m:416` (`-imageFromMemoryCacheForKey:`), `SDWebImage/SDImageCache.m:420` (`-imageFromDiskCacheForKey:`).
extension SDImageCache {
    /// Whether `key` has a file in the cache directory (with or without extension); the answer arrives on
    /// `completionQueue`. The check does not search read-only paths (as the original's `diskImageExistsWithKey:`,
    /// while its data reads do).
    public func diskImageExists(withKey key: String?, completion: SDWebImageCheckCacheCompletionBlock?) {
        ioQueue.async {
            let exists = self.diskImageDataExistsOnIOQueue(key)
            if let completion { self.callBack { completion(exists) } }
        }
    }

    /// Synchronous `diskImageExists`: waits for the io queue.
    public func diskImageDataExists(withKey key: String?) -> Bool {
        guard key != nil else { return false }
        return syncOnIOQueue { diskImageDataExistsOnIOQueue(key) }
    }

    /// The bytes of `key`'s file, searching the cache directory then each read-only path (CACHE-08);
    /// synchronous, on the io queue.
    public func diskImageData(forKey key: String?) -> Data? {
        guard let key else { return nil }
        return syncOnIOQueue { diskImageDataBySearchingAllPaths(forKey: key) }
    }

    /// The image in the memory cache, or nil.
    public func imageFromMemoryCache(forKey key: String?) -> UIImage? {
        guard let key else { return nil }
        return memCache.object(forKey: key)
    }

    /// The image decoded from disk (scaled for @2x/@3x keys, decompressed when the config says so; 4.4.8 does
    /// both on iOS, tvOS and watchOS only), which then goes into the memory cache unless
    /// `shouldCacheImagesInMemory` is off. Synchronous. A file that does not decode gives nil.
    public func imageFromDiskCache(forKey key: String?) -> UIImage? {
        guard let key else { return nil }
        let image = diskImage(forKey: key, data: diskImageData(forKey: key), options: [])
        if let image, config.shouldCacheImagesInMemory {
            memCache.setObject(image, forKey: key, cost: Int(clamping: image.sd_memoryCost))
        }
        return image
    }

    /// Memory first, then disk.
    public func imageFromCache(forKey key: String?) -> UIImage? {
        imageFromMemoryCache(forKey: key) ?? imageFromDiskCache(forKey: key)
    }

    /// `queryCacheOperation(forKey:options:done:)` with no options.
    @discardableResult
    public func queryCacheOperation(forKey key: String?, done: SDCacheQueryCompletedBlock?) -> Operation? {
        queryCacheOperation(forKey: key, options: [], done: done)
    }

    /// Looks `key` up in memory, then on disk.
    ///
    /// - A nil key: `done(nil, nil, .none)` at once; returns nil.
    /// - A memory hit (without `.queryDataWhenInMemory`): `done(image, nil, .memory)` at once, on the caller's
    ///   thread; returns nil. No disk data, whatever the image: 4.0–4.2 also read the file here when the image had
    ///   `images` (an animated image on iOS, tvOS and watchOS; 4.0–4.1 asked `isGIF`), 4.4.8 reads it only when
    ///   the option asks (CACHE-09).
    /// - Otherwise returns an `Operation` that only serves as a cancel token, and searches the disk on the io queue.
    ///   With `.queryDiskSync` the search runs on the calling thread instead, outside the io queue, and `done` is
    ///   called before this returns, on that thread, as 4.4.8 calls its block directly (`SDImageCache.m` 550-551 and
    ///   561-562). Reading there is safe because every write goes through a temporary file and a rename, so a reader
    ///   sees a whole old file or a whole new one. If the operation is cancelled before the search starts, `done` is
    ///   never called. A disk hit is decoded, goes into memory (unless `shouldCacheImagesInMemory` is off) and is
    ///   reported as `.disk` with its data; a file that does not decode is `(nil, its data, .disk)`, as 4.4.8 answers
    ///   (CACHE-16); a miss is `(nil, nil, .none)`. Asynchronous answers arrive on `completionQueue`.
    @discardableResult
    public func queryCacheOperation(
        forKey key: String?, options: SDImageCacheOptions,
        done: SDCacheQueryCompletedBlock?
    ) -> Operation? {
        guard let key else {
            done?(nil, nil, .none)
            return nil
        }
        let memoryImage = imageFromMemoryCache(forKey: key)
        SDWebImageTrace.record(.memoryQuery, key: key, memoryImage != nil ? "hit" : "miss")
        if let memoryImage, !options.contains(.queryDataWhenInMemory) {
            done?(memoryImage, nil, .memory)
            return nil
        }

        return performQuery(
            forKey: key, memoryImage: memoryImage,
            execution: options.contains(.queryDiskSync) ? .callersThread : .ioQueue,
            checksCancelBeforeDone: false,
            decode: { data in self.diskImage(forKey: key, data: data, options: options) },
            done: done)
    }

    // MARK: On the io queue (or the caller's thread for `.queryDiskSync`)

    /// Ports `-_diskImageDataExistsWithKey:`: the file name with its extension, then without.
    func diskImageDataExistsOnIOQueue(_ key: String?) -> Bool {
        guard let key else { return false }
        let fileName = SDImageCache.cachedFileName(forKey: key)
        return access(SDImageCache.join(diskCachePath, fileName), F_OK) == 0
            || access(SDImageCache.join(diskCachePath, String(fileName.prefix(32))), F_OK) == 0
    }

    /// Ports `-diskImageDataBySearchingAllPathsForKey:` (CACHE-08): the default path, the same without
    /// extension, then each read-only path likewise. Called on the io queue, or on the caller's thread by a
    /// `.queryDiskSync` query: it only reads, and `readOnlyCachePaths` and the config take their own locks.
    func diskImageDataBySearchingAllPaths(forKey key: String) -> Data? {
        let readingOptions = config.diskCacheReadingOptions
        let fileName = SDImageCache.cachedFileName(forKey: key)
        // The name is the 32-digit hash, then possibly "." and the extension.
        let bareName = fileName.utf8.count > 32 ? String(fileName.prefix(32)) : nil
        func read(_ directory: String, _ name: String) -> Data? {
            let path = SDImageCache.join(directory, name)
            if readingOptions.isEmpty { return CacheFileReader.contents(atPath: path) }
            return try? Data(contentsOf: URL(fileURLWithPath: path, isDirectory: false), options: readingOptions)
        }
        if let data = read(diskCachePath, fileName) { return data }
        if let bareName, let data = read(diskCachePath, bareName) { return data }
        for directory in readOnlyCachePaths {
            if let data = read(directory, fileName) { return data }
            if let bareName, let data = read(directory, bareName) { return data }
        }
        return nil
    }

    /// Ports `-diskImageForKey:data:options:`: decode, scale for @2x/@3x, force-decode when configured (in 4.4.8
    /// the scaling and the force-decode act on iOS, tvOS and watchOS only; on macOS both return the image as is).
    /// nil when there is no data or it does not decode (logged).
    func diskImage(forKey key: String, data: Data?, options: SDImageCacheOptions) -> UIImage? {
        guard let data else { return nil }
        let coders = SDWebImageCodersManager.shared
        if config.shouldDecompressImages && options.contains(.scaleDownLargeImages) {
            if let scaled = coders.decodedAndScaledDownImage(from: data) { return SDScaledImageForKey(key, scaled) }
        }
        let decoded: UIImage
        do {
            decoded = try coders.decodeImage(from: data)
        } catch {
            SDImageCache.logger.notice("disk cache file for key \(key) does not decode: \(error.localizedDescription)")
            return nil
        }
        guard var image = SDScaledImageForKey(key, decoded) else { return nil }
        if config.shouldDecompressImages {
            var decompressData: Data? = data
            let decompressOptions = [SDWebImageCoderScaleDownLargeImagesKey: options.contains(.scaleDownLargeImages)]
            image = coders.decompressedImage(with: image, data: &decompressData, options: decompressOptions) ?? image
        }
        return image
    }
}
