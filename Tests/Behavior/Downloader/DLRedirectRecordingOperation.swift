import Foundation
import SDPort
import SDPortTestSupport

/// An operation class for DL-16 that sees every redirect hop (4.4.8 forwards the session's
/// `willPerformHTTPRedirection` to operations that implement it) and answers as `DLRedirectRecordingOperation.answer`
/// says: follow, stop, or send the request somewhere else.
final class DLRedirectRecordingOperation: SDWebImageDownloaderOperation, @unchecked Sendable {
    enum Answer: Sendable {
        case follow
        case stop
        case rewrite(URL)
    }

    struct Hop: Sendable {
        let status: Int
        let from: URL?
        let to: URL?
    }

    /// What every instance answers, and every hop seen; set by the test before it downloads (tests run one at a time).
    static let answer = Locked<Answer>(.follow)
    static let hops = Locked<[Hop]>([])

    override func curlTask(
        _ task: SDWebImageCurlTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        Self.hops.update { $0.append(Hop(status: response.statusCode, from: response.url, to: request.url)) }
        switch Self.answer.value {
        case .follow:
            super.curlTask(
                task, willPerformHTTPRedirection: response, newRequest: request, completionHandler: completionHandler)
        case .stop:
            completionHandler(nil)
        case .rewrite(let url):
            var rewritten = request
            rewritten.url = url
            completionHandler(rewritten)
        }
    }
}
