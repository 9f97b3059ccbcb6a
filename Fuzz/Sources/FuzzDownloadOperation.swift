import Foundation
import SDPort

/// The downloader's operation with one change for fuzzing: a redirect is followed only back to the loopback
/// responder, so a fuzzed `Location` can never send a request off the machine.
final class FuzzDownloadOperation: SDWebImageDownloaderOperation, @unchecked Sendable {
    override func curlTask(
        _ task: SDWebImageCurlTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let local =
            request.url?.host == "127.0.0.1" && request.url?.port == Int(HTTPHarness.shared.responder.port)
            && request.url?.scheme == "http"
        completionHandler(local ? request : nil)
    }
}
