import Foundation
import Glibc

/// Clearing, the age and size cleanup, and cache statistics (CACHE-11, CACHE-12, FAQ-07, FAQ-08).
///
/// Ports the "Cache clean Ops" and "Cache Info" methods of `SDImageCache.m` (4.4.8). 5.x moves the cleanup to
/// `-[SDDiskCache removeExpiredData]` with the same two passes.
/// At tag 4.4.8: `SDWebImage/SDImageCache.m:625` (`-clearDiskOnCompletion:`), `SDWebImage/SDImageCache.m:645` (`-deleteOldFilesWithCompletionBlock:`), `SDWebImage/SDImageCache.m:786` (`-calculateSizeWithCompletionBlock:`).
/// At tag 5.21.5: `SDWebImage/Core/SDDiskCache.m:151` (`-removeExpiredData`).
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
                SDImageCache.logger.error(
                    "clearDisk: cannot recreate \(self.diskCachePath): \(SDImageCache.describe(error))")
            }
            if let completion { self.callBack(completion) }
        }
    }

    /// The disk cleanup (FAQ-08), asynchronous on the io queue; then `completionBlock` on `completionQueue`.
    ///
    /// Pass 1 deletes every file whose date (modification date, or access date per `config.diskCacheExpireType`)
    /// is at or before now − `maxCacheAge`. Pass 2 runs only when `maxCacheSize > 0` and the files left take more
    /// than `maxCacheSize` bytes on disk: it deletes the oldest files first until they take less than
    /// `maxCacheSize / 2`. Directories, hidden directories and hidden files are skipped, except this cache's hidden
    /// temporary files (`abandonedTemporaryFileAge`), which pass 1 deletes once they are an hour old (a deliberate
    /// difference, chapter 08); files in subdirectories count. No rule looks at how often a file is used. Size on
    /// disk is `st_blocks * 512`, as `NSURLTotalFileAllocatedSizeKey` is on Apple systems (Foundation's value is
    /// wrong on Linux).
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
        let removedCount = CacheDirectoryScanner.forEachFile(under: diskCachePath, skipsHiddenDirectories: true) {
            entry in
            if entry.isHidden {
                let isAbandonedTemporary =
                    entry.name.hasPrefix(AtomicFileWriter.temporaryPrefix)
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
        SDImageCache.logger.debug(
            "deleteOldFiles: \(removedCount) expired, \(trimmedCount) removed for size, \(currentCacheSize) bytes left")
    }

    /// The logical size in bytes (`st_size`) of everything under the cache directory, read synchronously on
    /// the io queue. Ports `-getSize`: 4.4.8 walks the directory with `enumeratorAtPath:`, which lists hidden
    /// entries and sub-directories too, and adds each entry's `fileSize`, a sub-directory's own size included.
    public func getSize() -> UInt {
        syncOnIOQueue {
            var size: UInt64 = 0
            CacheDirectoryScanner.forEachEntry(under: diskCachePath, skipsHiddenEntries: false) { size += $0.size }
            return UInt(clamping: size)
        }
    }

    /// The number of entries under the cache directory, synchronously. Ports `-getDiskCount`: 4.4.8 counts
    /// everything `enumeratorAtPath:` lists, so sub-directories and hidden entries count as well as files.
    public func getDiskCount() -> UInt {
        syncOnIOQueue {
            var count: UInt = 0
            CacheDirectoryScanner.forEachEntry(under: diskCachePath, skipsHiddenEntries: false) { _ in count += 1 }
            return count
        }
    }

    /// The number of entries under the cache directory and the logical size of the files among them, computed
    /// on the io queue and delivered on `completionQueue`. Ports `-calculateSizeWithCompletionBlock:`: 4.4.8
    /// skips hidden entries (and does not enter hidden directories), counts every other entry, directories
    /// included, and adds `NSURLFileSizeKey`, which Apple's Foundation leaves nil, so zero, for a directory.
    public func calculateSize(completionBlock: SDWebImageCalculateSizeBlock?) {
        ioQueue.async {
            var fileCount: UInt = 0
            var totalSize: UInt64 = 0
            CacheDirectoryScanner.forEachEntry(under: self.diskCachePath, skipsHiddenEntries: true) { entry in
                fileCount += 1
                if !entry.isDirectory { totalSize += entry.size }
            }
            let count = fileCount
            let size = UInt(clamping: totalSize)
            if let completionBlock { self.callBack { completionBlock(count, size) } }
        }
    }
}
