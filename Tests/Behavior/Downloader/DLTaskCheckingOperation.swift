import Foundation
import SDPort
import SDPortTestSupport

/// A download operation that counts the task callbacks it hears and those about a task that is not its own
/// (DL-18: the downloader must route each task's callbacks to the operation that owns it).
final class DLTaskCheckingOperation: SDWebImageDownloaderOperation, @unchecked Sendable {
    static let callbacks = Locked(0)
    static let foreignCallbacks = Locked(0)

    private func check(_ task: SDWebImageCurlTask) {
        Self.callbacks.update { $0 += 1 }
        if task !== dataTask { Self.foreignCallbacks.update { $0 += 1 } }
    }

    override func curlTask(
        _ task: SDWebImageCurlTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        check(task)
        super.curlTask(task, didReceive: response, completionHandler: completionHandler)
    }

    override func curlTask(_ task: SDWebImageCurlTask, didReceive data: Data) {
        check(task)
        super.curlTask(task, didReceive: data)
    }

    override func curlTask(_ task: SDWebImageCurlTask, didCompleteWithError error: Error?) {
        check(task)
        super.curlTask(task, didCompleteWithError: error)
    }
}
