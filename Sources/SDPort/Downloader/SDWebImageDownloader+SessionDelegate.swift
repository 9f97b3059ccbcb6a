import Foundation

/// The downloader as its session's delegate (DL-18): every task callback is forwarded to the operation that owns
/// the task, found by `operation(with:)`; an operation that does not take a callback, or no operation at all, gets
/// the session's default answer (allow the response, store the proposed response, follow the redirect, default
/// challenge handling).
///
/// Ports the `NSURLSessionDataDelegate` / `NSURLSessionTaskDelegate` half of `SDWebImageDownloader.m` (4.4.8,
/// `-operationWithTask:` at :353 and the forwarding methods at :373-449). The rule that follows from it: a cancelled
/// operation has dropped its task (`-reset`, `SDWebImageDownloaderOperation.m:239-246`), so the lookup no longer
/// finds it and the cancelled task's late `didCompleteWithError` goes nowhere: the stop notification is posted once,
/// by `-cancel`. Only an operation on a session of its own (no session given, `ownedSession`) is its session's
/// delegate and hears of its cancelled task, so it posts "stop" a second time.
///
/// Two deliberate differences: 4.4.8 compares `taskIdentifier`s, which are unique only within one session, so after
/// `createNewSession(with:)` a late callback of the old session's task could reach a new operation whose task has the
/// same number; the port compares the task itself (`===`). And 4.4.8 walks every queued operation for every
/// callback, O(operations) per chunk; the port's operation names itself the task's `owner`, so the lookup is one
/// check with the same answer (the owner, while it is unfinished and its `dataTask` is this task, asked under its
/// lifecycle lock), and only a task without an owner (a custom operation class's) is looked for in the queue as
/// 4.4.8 does.
/// At tag 4.4.8: `SDWebImage/SDWebImageDownloader.m:353` (`-operationWithTask:`), `SDWebImage/SDWebImageDownloader.m:416` (`-URLSession:task:didCompleteWithError:`).
extension SDWebImageDownloader: SDWebImageCurlTaskDelegate {
    /// The queued or running operation whose task is `task` (`-operationWithTask:`), if it takes task callbacks.
    func operation(with task: SDWebImageCurlTask) -> SDWebImageCurlTaskDelegate? {
        if let owner = task.owner as? SDWebImageDownloaderOperation {
            return owner.takesCallbacks(of: task) ? owner : nil
        }
        for case let operation as any SDWebImageDownloaderOperationInterface in downloadQueue.operations
        where operation.dataTask === task {
            return operation as? SDWebImageCurlTaskDelegate
        }
        return nil
    }

    public func curlTask(
        _ task: SDWebImageCurlTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let operation = operation(with: task) else { return completionHandler(.allow) }
        operation.curlTask(task, didReceive: response, completionHandler: completionHandler)
    }

    public func curlTask(_ task: SDWebImageCurlTask, didReceive data: Data) {
        operation(with: task)?.curlTask(task, didReceive: data)
    }

    public func curlTask(
        _ task: SDWebImageCurlTask, willCacheResponse proposedResponse: CachedURLResponse,
        completionHandler: @escaping @Sendable (CachedURLResponse?) -> Void
    ) {
        guard let operation = operation(with: task) else { return completionHandler(proposedResponse) }
        operation.curlTask(task, willCacheResponse: proposedResponse, completionHandler: completionHandler)
    }

    public func curlTask(
        _ task: SDWebImageCurlTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        guard let operation = operation(with: task) else { return completionHandler(request) }
        operation.curlTask(
            task, willPerformHTTPRedirection: response, newRequest: request, completionHandler: completionHandler)
    }

    public func curlTask(
        _ task: SDWebImageCurlTask, didReceiveChallengeFor protectionSpace: URLProtectionSpace,
        previousFailureCount: Int,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard let operation = operation(with: task) else { return completionHandler(.performDefaultHandling, nil) }
        operation.curlTask(
            task, didReceiveChallengeFor: protectionSpace, previousFailureCount: previousFailureCount,
            completionHandler: completionHandler)
    }

    public func curlTask(_ task: SDWebImageCurlTask, didCompleteWithError error: Error?) {
        operation(with: task)?.curlTask(task, didCompleteWithError: error)
    }
}
