import Foundation
import Glibc

/// Clearing, the age and size cleanup, and cache statistics (CACHE-11, CACHE-12, FAQ-07, FAQ-08).
///
/// Ports the "Cache clean Ops" and "Cache Info" methods of `SDImageCache.m` (4.4.8). 5.x moves the cleanup to
/// `-[SDDiskCache removeExpiredData]` with the same two passes.
extension SDImageCache {
    /// Temporary files left by a crash mid-write are deleted by the cleanup once they are this old. (Writes
    /// of this cache never overlap the cleanup, both being on the io queue; the delay spares another process's
    /// write into a shared directory.)
    static let abandonedTemporaryFileAge: TimeInterval = 60 * 60

    /// Empties the memory cache (and its weak side table).
    public func clearMemory() {
        memCache.removeAllObjects()
    }

    /// Deletes the cache directory and creates it again, on the io queue; then `completion` on `completionQueue`.
    public func clearDisk(onCompletion completion: SDWebImageNoParamsBlock?) {
        ioQueue.async {
            try? self.fileManager.removeItem(atPath: self.diskCachePath)
            do {
                try self.fileManager.createDirectory(atPath: self.diskCachePath, withIntermediateDirectories: true)
            } catch {
                SDImageCache.logger.error("clearDisk: cannot recreate \(self.diskCachePath): \(SDImageCache.describe(error))")
            }
            if let completion { self.callBack(completion) }
        }
    }

    /// The disk cleanup (FAQ-08), asynchronous on the io queue; then `completionBlock` on `completionQueue`.
    ///
    /// Pass 1 deletes every file whose date (modification date, or access date per `config.diskCacheExpireType`)
    /// is at or before now − `maxCacheAge`. Pass 2 runs only when `maxCacheSize > 0` and the files left take more
    /// than `maxCacheSize` bytes on disk: it deletes the oldest files first until they take less than
    /// `maxCacheSize / 2`. Directories and hidden files are skipped; files in subdirectories count. No rule looks
    /// at how often a file is used. Size on disk is `st_blocks * 512`, as `NSURLTotalFileAllocatedSizeKey` is on
    /// Apple systems (Foundation's value is wrong on Linux).
    public func deleteOldFiles(completionBlock: SDWebImageNoParamsBlock?) {
        ioQueue.async {
            self.deleteOldFilesOnIOQueue()
            if let completionBlock { self.callBack(completionBlock) }
        }
    }

    private func deleteOldFilesOnIOQueue() {
        let now = Date().timeIntervalSince1970
        let expirationDate = now - config.maxCacheAge
        let maxCacheSize = config.maxCacheSize
        let useAccessDate = config.diskCacheExpireType == .accessDate

        var kept: [(path: String, date: TimeInterval, allocatedSize: UInt64)] = []
        var currentCacheSize: UInt64 = 0
        // Pass 1 removes expired files as the scan meets them (the original lists them first, then deletes).
        let removedCount = CacheDirectoryScanner.forEachFile(under: diskCachePath, skipsHiddenDirectories: true) { entry in
            if entry.isHidden {
                let isAbandonedTemporary = entry.name.hasPrefix(AtomicFileWriter.temporaryPrefix)
                    && entry.modificationDate < now - SDImageCache.abandonedTemporaryFileAge
                return isAbandonedTemporary ? .remove : .keep
            }
            let date = useAccessDate ? entry.accessDate : entry.modificationDate
            if date <= expirationDate { return .remove }
            currentCacheSize += entry.allocatedSize
            if maxCacheSize > 0 { kept.append((entry.path, date, entry.allocatedSize)) }
            return .keep
        }

        var trimmedCount = 0
        if maxCacheSize > 0, currentCacheSize > UInt64(maxCacheSize) {
            let desiredCacheSize = UInt64(maxCacheSize / 2)
            kept.sort { $0.date < $1.date }
            for file in kept where unlink(file.path) == 0 {
                trimmedCount += 1
                currentCacheSize -= file.allocatedSize
                if currentCacheSize < desiredCacheSize { break }
            }
        }
        SDImageCache.logger.debug("deleteOldFiles: \(removedCount) expired, \(trimmedCount) removed for size, \(currentCacheSize) bytes left")
    }

    /// The total size in bytes of the files in the cache directory (hidden ones included), read synchronously
    /// on the io queue. The original also adds the size of directory entries; the port counts files only.
    public func getSize() -> UInt {
        syncOnIOQueue {
            var size: UInt64 = 0
            CacheDirectoryScanner.forEachFile(under: diskCachePath, skipsHiddenDirectories: false) { size += $0.size }
            return UInt(clamping: size)
        }
    }

    /// The number of files in the cache directory (hidden ones included), synchronously. The original counts
    /// directories too; the port counts files only.
    public func getDiskCount() -> UInt {
        syncOnIOQueue {
            var count: UInt = 0
            CacheDirectoryScanner.forEachFile(under: diskCachePath, skipsHiddenDirectories: false) { _ in count += 1 }
            return count
        }
    }

    /// The number of files and their total size in bytes, hidden files skipped, computed on the io queue and
    /// delivered on `completionQueue`.
    public func calculateSize(completionBlock: SDWebImageCalculateSizeBlock?) {
        ioQueue.async {
            var fileCount: UInt = 0
            var totalSize: UInt64 = 0
            CacheDirectoryScanner.forEachFile(under: self.diskCachePath, skipsHiddenDirectories: true) { entry in
                guard !entry.isHidden else { return }
                fileCount += 1
                totalSize += entry.size
            }
            let count = fileCount
            let size = UInt(clamping: totalSize)
            if let completionBlock { self.callBack { completionBlock(count, size) } }
        }
    }
}
