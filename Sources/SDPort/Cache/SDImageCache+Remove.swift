import Foundation
import Glibc

/// Removing one image (CACHE-10).
///
/// Ports `-removeImageForKey:fromDisk:withCompletion:` (4.4.8).
/// At tag 4.4.8: `SDWebImage/SDImageCache.m:576` (`-removeImageForKey:fromDisk:withCompletion:`).
extension SDImageCache {
    /// Removes `key` from memory and disk; `completion` runs on `completionQueue` after the file is gone.
    public func removeImage(forKey key: String?, withCompletion completion: SDWebImageNoParamsBlock?) {
        removeImage(forKey: key, fromDisk: true, withCompletion: completion)
    }

    /// Removes `key` from memory (when the memory cache is in use, as the original), then, when `fromDisk`,
    /// deletes its file asynchronously on the io queue and calls `completion` on `completionQueue`; without
    /// `fromDisk` the completion runs at once. A nil key returns without calling the completion (as the
    /// original). The port also deletes the file name without extension that reads fall back to, so a removed
    /// key is not found again through that fallback.
    public func removeImage(forKey key: String?, fromDisk: Bool, withCompletion completion: SDWebImageNoParamsBlock?) {
        guard let key else { return }
        if config.shouldCacheImagesInMemory {
            memCache.removeObject(forKey: key)
        }
        guard fromDisk else {
            completion?()
            return
        }
        ioQueue.async {
            let fileName = SDImageCache.cachedFileName(forKey: key)
            unlink(SDImageCache.join(self.diskCachePath, fileName))
            if fileName.utf8.count > 32 { unlink(SDImageCache.join(self.diskCachePath, String(fileName.prefix(32)))) }
            if let completion { self.callBack(completion) }
        }
    }
}
