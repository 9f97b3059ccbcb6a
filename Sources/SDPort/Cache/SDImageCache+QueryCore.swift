import Foundation

/// The one query core behind both cache queries: the 4.4.8 `queryCacheOperation(forKey:options:done:)` and the
/// 5.x `queryImage(forKey:options:context:done:)`. Each front does its own memory step and passes in how to decode
/// a file and where the search runs; the search itself — read the file, keep the memory image with the data, or
/// decode the file and fill memory, trace the step — is written once here.
/// At tag 4.4.8: `SDWebImage/SDImageCache.m:506` (`-queryCacheOperationForKey:options:done:`).
/// At tag 5.21.5: `SDWebImage/Core/SDImageCache.m:609` (`-queryCacheOperationForKey:options:context:cacheType:done:`).
extension SDImageCache {
    /// Where a query searches the disk and calls `done`.
    enum QueryExecution {
        /// On the io queue, `done` later on `completionQueue` (both versions' default).
        case ioQueue
        /// On the caller's thread, `done` before returning: 4.4.8's `SDImageCacheQueryDiskSync`.
        case callersThread
        /// On the io queue with the caller waiting, `done` on the caller's thread after the wait: 5.x's
        /// `QueryDiskDataSync` (5.12.4 on; 5.0–5.12.3 call `done` inside the io queue).
        case ioQueueWaiting
    }

    /// Searches the disk for `key` and answers `done`, as `execution` says. `memoryImage` (a memory hit whose data was
    /// asked for) is answered with the file's bytes as `.memory`; otherwise `decode` turns the file into an image,
    /// which goes into memory and is answered as `.disk` (a file that does not decode: nil image, its data, `.disk`,
    /// CACHE-16). With `checksCancelBeforeDone` an asynchronous answer is dropped when the operation was cancelled
    /// meanwhile (5.13.0 checks after the search, 5.13.2 on also right before `done`); 4.4.8 checks only before the
    /// search. `memoryKey` (5.x only) names the memory key a decoded file goes under, nil for none; without it the
    /// file goes under `key`. `callBack` (5.x only) runs an asynchronous answer instead of `completionQueue`. Returns
    /// the cancel token.
    func performQuery(
        forKey key: String, memoryImage: UIImage?, execution: QueryExecution, checksCancelBeforeDone: Bool,
        memoryKey: (@Sendable (UIImage) -> String?)? = nil,
        callBack: (@Sendable (@escaping @Sendable () -> Void) -> Void)? = nil,
        decode: @escaping @Sendable (Data) -> UIImage?, done: SDCacheQueryCompletedBlock?
    ) -> Operation {
        let callBack = callBack ?? { self.callBack($0) }
        let operation = Operation()
        let search: @Sendable () -> (UIImage?, Data?, SDImageCacheType) = {
            let start = SDWebImageTrace.stepStart()  // the step covers the read and the decode (nil: untraced)
            let diskData = self.diskImageDataBySearchingAllPaths(forKey: key)
            if let memoryImage {
                SDWebImageTrace.record(
                    .diskQuery, key: key, since: start,
                    diskData != nil ? "data read for a memory hit" : "no data for a memory hit")
                return (memoryImage, diskData, .memory)
            }
            guard let diskData else {
                SDWebImageTrace.record(.diskQuery, key: key, since: start, "miss")
                return (nil, nil, .none)
            }
            guard let image = decode(diskData) else {
                // The type is .disk once the file is read, whether or not it decodes (4.4.8
                // `SDImageCache.m:539-547`; 5.0-5.8 the same, while from 5.9.0 a disk search that runs answers .disk
                // even on a miss): the caller gets the bytes and no image (CACHE-16).
                SDWebImageTrace.record(
                    .diskQuery, key: key, since: start, "file does not decode: no image, its \(diskData.count) bytes")
                return (nil, diskData, .disk)
            }
            if self.config.shouldCacheImagesInMemory, let memoryKey = memoryKey.map({ $0(image) }) ?? key {
                self.memCache.setObject(image, forKey: memoryKey, cost: Int(clamping: image.sd_memoryCost))
            }
            SDWebImageTrace.record(.diskQuery, key: key, since: start, "hit, \(diskData.count) bytes")
            return (image, diskData, .disk)
        }
        switch execution {
        case .callersThread:
            guard !operation.isCancelled else { return operation }
            let (image, data, cacheType) = search()
            done?(image, data, cacheType)
        case .ioQueueWaiting:
            let (image, data, cacheType) = syncOnIOQueue(search)
            done?(image, data, cacheType)
        case .ioQueue:
            ioQueue.async {
                guard !operation.isCancelled else { return }
                let (image, data, cacheType) = search()
                guard let done else { return }
                callBack {
                    if checksCancelBeforeDone, operation.isCancelled { return }
                    done(image, data, cacheType)
                }
            }
        }
        return operation
    }
}
