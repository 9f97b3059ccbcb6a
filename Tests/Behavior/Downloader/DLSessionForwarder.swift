import Foundation
import SDPort
import SDPortTestSupport

/// A session delegate that forwards each task callback to the operation that made the task (`task.owner`), as
/// the downloader does (DL-18), and counts the callbacks it forwarded: a test can tell that a session it injected
/// into an operation carried the download (DL-19).
final class DLSessionForwarder: SDWebImageCurlTaskDelegate, @unchecked Sendable {  // `forwarded` has its own lock
    let forwarded = Locked(0)

    private func owner(of task: SDWebImageCurlTask) -> SDWebImageDownloaderOperation? {
        forwarded.update { $0 += 1 }
        return task.owner as? SDWebImageDownloaderOperation
    }

    func curlTask(
        _ task: SDWebImageCurlTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let operation = owner(of: task) else { return completionHandler(.cancel) }
        operation.curlTask(task, didReceive: response, completionHandler: completionHandler)
    }

    func curlTask(_ task: SDWebImageCurlTask, didReceive data: Data) {
        owner(of: task)?.curlTask(task, didReceive: data)
    }

    func curlTask(
        _ task: SDWebImageCurlTask, willCacheResponse proposedResponse: CachedURLResponse,
        completionHandler: @escaping @Sendable (CachedURLResponse?) -> Void
    ) {
        guard let operation = owner(of: task) else { return completionHandler(nil) }
        operation.curlTask(task, willCacheResponse: proposedResponse, completionHandler: completionHandler)
    }

    func curlTask(
        _ task: SDWebImageCurlTask, didReceiveChallengeFor protectionSpace: URLProtectionSpace,
        previousFailureCount: Int,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard let operation = owner(of: task) else { return completionHandler(.cancelAuthenticationChallenge, nil) }
        operation.curlTask(
            task, didReceiveChallengeFor: protectionSpace, previousFailureCount: previousFailureCount,
            completionHandler: completionHandler)
    }

    func curlTask(_ task: SDWebImageCurlTask, didCompleteWithError error: Error?) {
        owner(of: task)?.curlTask(task, didCompleteWithError: error)
    }
}
