import Foundation
import SDPort

/// A manager delegate that, asked whether to download, cancels every load of the manager and then says yes: it
/// runs between the manager's last cancel check and the moment it stores the download's cancel handle (MUS-09).
/// `afterAnswer` is queued on the main queue, which the manager's cache answer runs on, so it runs after the
/// manager's `continueLoad` has returned.
final class MUSCancellingDelegate: SDWebImageManagerDelegate {
    let afterAnswer: @Sendable () -> Void

    init(afterAnswer: @escaping @Sendable () -> Void) {
        self.afterAnswer = afterAnswer
    }

    func imageManager(_ imageManager: SDWebImageManager, shouldDownloadImageFor imageURL: URL?) -> Bool {
        imageManager.cancelAll()
        DispatchQueue.main.async(execute: afterAnswer)
        return true
    }
}
