import Foundation

/// One request of the downloader as a 5.x image loader (`requestImage(with:options:context:progress:completed:)`):
/// the caller's completion, called at most once with a finished answer, and the cancels that answer it with
/// `SDWebImageErrorCancelled` (2002) (V5-12).
///
/// 5.21.5's download operation calls a caller back with 2002 in three places: when the caller cancels its own token
/// while other callers still wait for the download (`-cancel:`), when the whole operation is cancelled before it
/// finished (`-cancelInternal`, which `cancelAllDownloads` reaches too), and when an operation cancelled before it ran
/// is started (`-start`; by then `-cancelInternal` has answered and dropped the callers it had, so this reaches only
/// a caller added after that cancel). The port's 4.4.8 operation calls nobody in any of these cases (OP-05), and its 4.x
/// callers keep that. For a 5.x caller this request answers instead: `cancel()` cancels the token, then answers;
/// `attach(_:)` asks the operation to tell it of a cancel from below (`whenCancelledBeforeCompletion`). Whichever comes
/// first of the download's final answer and a cancel's is the one the caller gets; later partial images are dropped.
/// The cancel's answer goes through `callbackQueue` (the context's, else the downloader's `completionQueue` with
/// `SDCallbackQueue`'s policies).
///
/// Not a type of the original: there (5.1.0 on) the download operation answers the cancel itself, with the completion
/// block held by the caller's token (a dictionary until 5.13.x, an `SDWebImageDownloaderOperationToken` from 5.14.0).
/// `completed` and `token` are guarded by `lock`. The token's cancel token holds the download's completion, which
/// holds this request, so the request lets go of the token once it has answered: otherwise the two would keep each
/// other alive.
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageDownloaderOperation.m:147` (`-cancel:`), `SDWebImage/Core/SDWebImageDownloaderOperation.m:272` (`-cancelInternal`).
final class SDWebImageDownloaderLoaderRequest: SDWebImageOperation, @unchecked Sendable {
    /// The URL asked for (named in the cancel's error).
    let url: URL
    private let callbackQueue: SDCallbackQueue
    /// Guards `completed` and `token`.
    private let lock = NSLock()
    /// The caller's completion until a finished answer took it.
    private var completed: SDImageLoaderCompletedBlock?
    private var token: SDWebImageDownloadToken?

    init(url: URL, callbackQueue: SDCallbackQueue, completed: SDImageLoaderCompletedBlock?) {
        self.url = url
        self.callbackQueue = callbackQueue
        self.completed = completed
    }

    /// Keeps the downloader's token and, when the download is the downloader's own operation, asks it to tell
    /// this request of a cancel that does not come through `cancel()`.
    func attach(_ token: SDWebImageDownloadToken?) {
        // A download that already answered (it can answer before this returns) needs no token kept.
        lock.withLock { if completed != nil { self.token = token } }
        (token?.downloadOperation as? SDWebImageDownloaderOperation)?.whenCancelledBeforeCompletion { [self] in
            answerCancelled()
        }
    }

    /// An answer of the download: a partial image passes while no finished answer was given; a finished one is
    /// passed once.
    func answer(_ image: UIImage?, _ data: Data?, _ error: Error?, _ finished: Bool) {
        let block: SDImageLoaderCompletedBlock? = lock.withLock {
            defer {
                if finished {
                    completed = nil
                    token = nil
                }
            }
            return completed
        }
        block?(image, data, error, finished)
    }

    /// Answers `SDWebImageErrorCancelled`, finished, unless a finished answer was given.
    func answerCancelled() {
        let block: SDImageLoaderCompletedBlock? = lock.withLock {
            defer {
                completed = nil
                token = nil
            }
            return completed
        }
        guard let block else { return }
        let error = SDWebImageV5Error.cancelled(url)
        callbackQueue.async { block(nil, nil, error, true) }
    }

    /// Removes this caller from the download (cancelling it when it was the last one), then answers 2002.
    func cancel() {
        let token = lock.withLock { () -> SDWebImageDownloadToken? in
            defer { self.token = nil }
            return self.token
        }
        token?.cancel()
        answerCancelled()
    }
}
