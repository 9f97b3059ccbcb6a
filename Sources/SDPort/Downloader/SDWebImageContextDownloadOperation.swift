import Foundation

/// A download operation for a request the context customised (request modifier, response modifier, decryptor,
/// own coder): runs on its own queue, applies the response modifier when the response arrives, and keeps the bytes
/// and the response it received, so a decryptor or a context coder can work on data the shared coders reject.
///
/// Not a type of the original: 5.x's downloader takes the context itself (`downloadImageWithURL:options:context:`) and
/// hands the modified request, the response modifier and the decryptor (5.3.0 on) and the coder (5.6.0 on) to its
/// operation. The port's 4.4.8 downloader has no context, so `SDWebImageDownloader+SDImageLoader` runs such requests
/// here instead. Consequences, documented there: these downloads are not joined with other downloads of the same URL,
/// use their own libcurl session (the request's `timeoutInterval` applies; the downloader's protocol cache does not),
/// and are not in `currentDownloadCount`.
///
/// The response modifier (V5-08) runs as 5.x runs it, when the response head arrives: the operation's `response` is
/// the modified one, whose status the operation then checks; a nil answer leaves `response` nil, stops the transfer
/// and marks `capture` so the loader reports `InvalidDownloadResponse` (2003). The loader reads `capture`, never the
/// operation, so the answer does not depend on who still holds the operation.
///
/// `capture` is one lock of its own; `responseModifier` is set before the operation starts and read once per
/// response, under its own lock.
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageDownloader.m:197` (`-downloadImageWithURL:options:context:progress:completed:`), `SDWebImage/Core/SDWebImageDownloaderOperation.m:430` (`-URLSession:dataTask:didReceiveResponse:completionHandler:`).
final class SDWebImageContextDownloadOperation: SDWebImageDownloaderOperation, @unchecked Sendable {
    /// What the download received, for the loader's completion.
    struct Capture: Sendable {
        /// Every byte received so far.
        var data = Data()
        /// The (modified) response.
        var response: URLResponse?
        /// The response modifier answered nil.
        var responseRejected = false
    }

    /// Where context downloads run; as many at once as the downloader's default (6).
    static let queue: OperationQueue = {
        let queue = OperationQueue()
        queue.name = "com.hackemist.SDWebImageDownloader.context"
        queue.maxConcurrentOperationCount = 6
        return queue
    }()

    /// What was received; the loader's completion keeps this, not the operation.
    let capture = SDLocked(wrappedValue: Capture())

    /// The context's response modifier (`SDWebImageContextDownloadResponseModifier`, 5.3.0 and later).
    @SDLocked var responseModifier: SDWebImageDownloaderResponseModifier? = nil

    /// Every byte received so far.
    var capturedData: Data { capture[\.data] }

    override func curlTask(
        _ task: SDWebImageCurlTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let modifier = responseModifier else {
            capture[\.response] = response
            super.curlTask(task, didReceive: response, completionHandler: completionHandler)
            return
        }
        guard let modified = modifier.modifiedResponse(with: response) else {
            capture.withLock {
                $0.responseRejected = true
                $0.response = nil
            }
            self.response = nil
            completionHandler(.cancel)
            return
        }
        capture[\.response] = modified
        super.curlTask(task, didReceive: modified, completionHandler: completionHandler)
    }

    override func curlTask(_ task: SDWebImageCurlTask, didReceive data: Data) {
        capture.withLock { $0.data.append(data) }
        super.curlTask(task, didReceive: data)
    }
}
