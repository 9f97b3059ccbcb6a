import Foundation
import SDPort

/// MUS-09's diagram: a manager delegate that cancels every load of the manager when it is asked whether to
/// download, then says yes (the moment between the manager's cancel check and the download's handle).
final class MuseumCancellingDelegate: SDWebImageManagerDelegate {
    let onAsk: @Sendable () -> Void

    init(onAsk: @escaping @Sendable () -> Void) { self.onAsk = onAsk }

    func imageManager(_ imageManager: SDWebImageManager, shouldDownloadImageFor imageURL: URL?) -> Bool {
        onAsk()
        imageManager.cancelAll()
        return true
    }
}
