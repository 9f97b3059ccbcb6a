import Foundation

/// A download operation for a request the context customised (request modifier, response modifier, own coder):
/// runs on its own queue and keeps the bytes it received, so a context coder can decode data the shared coders
/// reject.
///
/// Not a type of the original: 5.x's downloader takes the context itself (`downloadImageWithURL:options:context:`)
/// and hands the modified request and the coder to its operation. The port's 4.4.8 downloader has no context, so
/// `SDWebImageDownloader+SDImageLoader` runs such requests here instead. Consequences, documented there: these
/// downloads are not joined with other downloads of the same URL, use their own libcurl session (the request's
/// `timeoutInterval` applies; the downloader's protocol cache does not), and are not in `currentDownloadCount`.
///
/// `receivedData` is guarded by `captureLock`.
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageDownloader.m:197` (`-downloadImageWithURL:options:context:progress:completed:`).
final class SDWebImageContextDownloadOperation: SDWebImageDownloaderOperation, @unchecked Sendable {
    /// Where context downloads run; as many at once as the downloader's default (6).
    static let queue: OperationQueue = {
        let queue = OperationQueue()
        queue.name = "com.hackemist.SDWebImageDownloader.context"
        queue.maxConcurrentOperationCount = 6
        return queue
    }()

    /// Guards `receivedData`.
    private let captureLock = NSLock()
    private var receivedData = Data()

    /// Every byte received so far.
    var capturedData: Data { captureLock.withLock { receivedData } }

    override func curlTask(_ task: SDWebImageCurlTask, didReceive data: Data) {
        captureLock.withLock { receivedData.append(data) }
        super.curlTask(task, didReceive: data)
    }
}
