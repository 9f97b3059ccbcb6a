import Foundation
import SDPort

/// A downloader operation that signals `completionBlockRan` after the completion block the downloader gave it
/// has run, so a test knows when the downloader's bookkeeping for this operation is done (MUS-08).
final class MUSCompletionSignalOperation: SDWebImageDownloaderOperation, @unchecked Sendable {
    let completionBlockRan = DispatchSemaphore(value: 0)

    override var completionBlock: (@Sendable () -> Void)? {
        get { super.completionBlock }
        set {
            guard let newValue else {
                super.completionBlock = nil
                return
            }
            let signal = completionBlockRan
            super.completionBlock = {
                newValue()
                signal.signal()
            }
        }
    }
}
