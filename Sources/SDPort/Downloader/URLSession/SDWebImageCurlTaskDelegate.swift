import Foundation

/// What an `SDWebImageCurlTask` tells its delegate, on the session's serial delegate queue, in this order:
/// the response (the delegate answers allow or cancel), the data chunks, whether to store the response in the
/// protocol cache, and the completion.
///
/// Ports the parts of `NSURLSessionDataDelegate` / `NSURLSessionTaskDelegate` that
/// `SDWebImageDownloaderOperation` implements in 4.4.8 (`didReceiveResponse`, `didReceiveData`,
/// `willCacheResponse`, `didReceiveChallenge`, `didCompleteWithError`). The original's downloader is the
/// session's delegate and looks up the operation for each task; here each task carries its delegate (5.x does
/// the same lookup as 4.4.8).
/// At tag 4.4.8: `SDWebImage/SDWebImageDownloaderOperation.m:281` (`-URLSession:dataTask:didReceiveResponse:completionHandler:`), `SDWebImage/SDWebImageDownloaderOperation.m:316` (`-URLSession:dataTask:didReceiveData:`), `SDWebImage/SDWebImageDownloaderOperation.m:383` (`-URLSession:task:didCompleteWithError:`).
public protocol SDWebImageCurlTaskDelegate: AnyObject, Sendable {
    /// The final response head arrived (after redirects). No data is delivered until `completionHandler`
    /// is called; `.cancel` ends the task with NSURLErrorCancelled.
    func curlTask(
        _ task: SDWebImageCurlTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void)
    /// A chunk of the body.
    func curlTask(_ task: SDWebImageCurlTask, didReceive data: Data)
    /// The whole body arrived and the response may be stored; pass it on (or another one) to store it, nil not to.
    func curlTask(
        _ task: SDWebImageCurlTask, willCacheResponse proposedResponse: CachedURLResponse,
        completionHandler: @escaping @Sendable (CachedURLResponse?) -> Void)
    /// A response redirects to `request` (301, 302, 303, 307, 308 with a Location). Pass `request` (or another
    /// one) to follow it; nil makes the redirect response the final response. Ports NSURLSession's
    /// `willPerformHTTPRedirection`, which 4.4.8's downloader forwards to an operation that implements it and
    /// otherwise follows itself; its own operation class does not (DL-16).
    func curlTask(
        _ task: SDWebImageCurlTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void)
    /// The server asked for credentials (HTTP 401). `previousFailureCount` counts credentials already rejected.
    /// `.useCredential` with a user and password repeats the request with HTTP Basic;
    /// `.cancelAuthenticationChallenge` ends the task with NSURLErrorCancelled (the 401 is never delivered, as
    /// with NSURLSession); anything else lets the 401 response through to `didReceive response`.
    ///
    /// Server-trust challenges do not come here: libcurl verifies the certificate during the handshake, so the
    /// answer is given up front with `SDWebImageCurlTask.allowsInvalidServerCertificates`.
    func curlTask(
        _ task: SDWebImageCurlTask, didReceiveChallengeFor protectionSpace: URLProtectionSpace,
        previousFailureCount: Int,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void)
    /// The task ended: nil on success, else an `NSURLErrorDomain` error.
    func curlTask(_ task: SDWebImageCurlTask, didCompleteWithError error: Error?)
}

extension SDWebImageCurlTaskDelegate {
    public func curlTask(
        _ task: SDWebImageCurlTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(request)
    }

    public func curlTask(
        _ task: SDWebImageCurlTask, willCacheResponse proposedResponse: CachedURLResponse,
        completionHandler: @escaping @Sendable (CachedURLResponse?) -> Void
    ) {
        completionHandler(proposedResponse)
    }

    public func curlTask(
        _ task: SDWebImageCurlTask, didReceiveChallengeFor protectionSpace: URLProtectionSpace,
        previousFailureCount: Int,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        completionHandler(.performDefaultHandling, nil)
    }
}
