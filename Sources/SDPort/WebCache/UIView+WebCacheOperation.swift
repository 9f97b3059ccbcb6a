import Foundation

/// Ports `UIView+WebCacheOperation` (4.4.8): the view's table of running loads by operation key (VIEW-02).
///
/// The original guards the table with `@synchronized(self)` because these methods may be called off the main
/// thread; here views are main-actor isolated, so the compiler keeps every call on the main actor.
/// At tag 4.4.8: `SDWebImage/UIView+WebCacheOperation.m:32` (`-sd_setImageLoadOperation:forKey:`), `SDWebImage/UIView+WebCacheOperation.m:44` (`-sd_cancelImageLoadOperationWithKey:`).
extension UIView {
    /// The running operation stored under `key` (5.x's `sd_imageLoadOperationForKey:`), nil once it finished.
    public func sd_imageLoadOperation(forKey key: String?) -> (any SDWebImageOperation)? {
        guard let key else { return nil }
        return sd_operationDictionary[key]
    }

    /// Cancels what runs under `key`, then stores `operation` there (weakly).
    public func sd_setImageLoadOperation(_ operation: (any SDWebImageOperation)?, forKey key: String?) {
        guard let key else { return }
        sd_cancelImageLoadOperation(withKey: key)
        if let operation {
            sd_operationDictionary[key] = operation
        }
    }

    /// Cancels the operation under `key` and forgets it.
    public func sd_cancelImageLoadOperation(withKey key: String?) {
        guard let key, let operation = sd_operationDictionary[key] else { return }
        operation.cancel()
        sd_operationDictionary.removeValue(forKey: key)
    }

    /// Forgets the operation under `key` without cancelling it.
    public func sd_removeImageLoadOperation(withKey key: String?) {
        guard let key else { return }
        sd_operationDictionary.removeValue(forKey: key)
    }
}
