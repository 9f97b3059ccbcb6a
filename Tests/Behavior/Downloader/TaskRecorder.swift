import Foundation
import SDPort

/// A task delegate for `SDWebImageCurlTask` tests: answers every response with `disposition`, stores what the
/// protocol cache is offered when `storesResponses`, and records the events in order. Guarded by `lock`.
final class TaskRecorder: SDWebImageCurlTaskDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private let onComplete: @Sendable () -> Void
    private let storesResponses: Bool
    private(set) var response: HTTPURLResponse?
    private(set) var body = Data()
    private(set) var error: NSError?
    private(set) var completions = 0
    private(set) var proposals = 0

    init(storesResponses: Bool = true, onComplete: @escaping @Sendable () -> Void) {
        self.storesResponses = storesResponses
        self.onComplete = onComplete
    }

    func curlTask(
        _ task: SDWebImageCurlTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        lock.withLock { self.response = response as? HTTPURLResponse }
        completionHandler(.allow)
    }

    func curlTask(_ task: SDWebImageCurlTask, didReceive data: Data) {
        lock.withLock { body.append(data) }
    }

    func curlTask(
        _ task: SDWebImageCurlTask, willCacheResponse proposedResponse: CachedURLResponse,
        completionHandler: @escaping @Sendable (CachedURLResponse?) -> Void
    ) {
        lock.withLock { proposals += 1 }
        completionHandler(storesResponses ? proposedResponse : nil)
    }

    func curlTask(_ task: SDWebImageCurlTask, didCompleteWithError error: Error?) {
        lock.withLock {
            self.error = error as NSError?
            completions += 1
        }
        onComplete()
    }

    var snapshot: (response: HTTPURLResponse?, body: Data, error: NSError?, completions: Int) {
        lock.withLock { (response, body, error, completions) }
    }

    /// How many times the protocol cache was offered the response (`willCacheResponse`).
    var proposalCount: Int { lock.withLock { proposals } }
}
