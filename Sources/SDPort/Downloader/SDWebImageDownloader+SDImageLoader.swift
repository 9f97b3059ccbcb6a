import Foundation

/// The downloader as a 5.x image loader (V5-03): the default loader of the 5.x flow.
///
/// Ports 5.x's `SDWebImageDownloader (SDImageLoader)` category (`SDWebImageDownloader.m`): it can request any
/// non-nil URL, maps the 5.x options onto downloader options (`SDWebImageV5Options.downloaderOptions`), and blocks
/// failed URLs by 5.x's rule (`shouldBlockFailedURLWithURL:error:`): in `SDWebImageErrorDomain` only a bad URL or
/// bad data, in `NSURLErrorDomain` everything except a cancel and the network's own failures (offline, timeout, host
/// not found or unreachable, connection lost, roaming off, data not allowed), nothing else.
///
/// The 4.4.8 downloader underneath reports two failures the 4.4.8 way; the loader reports them as 5.x does: a
/// cancelled invalid response (HTTP >= 400) becomes `InvalidDownloadStatusCode` (2001, not blocked), and
/// "Downloaded image has 0 pixels" becomes `BadImageData` (1001, blocked).
///
/// Cancelling answers, as 5.x does from 5.1.0 (V5-12): a request cancelled through the returned operation, or whose
/// download is cancelled from below (`cancelAllDownloads`, `createNewSession`), is called back once with
/// `SDWebImageErrorCancelled` (2002), finished (`SDWebImageDownloaderLoaderRequest`). The 4.x callers of the same
/// download are still called by nobody (4.4.8).
///
/// How the context is honoured on top of the 4.4.8 downloader, which has no context:
/// - Plain requests go through `downloadImage(with:options:progress:completed:)`, so they join running downloads
///   of the same URL. When the context or options change decoding (`imageScaleFactor`,
///   `imageThumbnailPixelSize`, `cacheKeyFilter`, `avoidDecodeImage`, `decodeFirstFrameOnly`), the downloaded
///   bytes are decoded again with `SDImageLoaderDecodeImageData` (5.x decodes only inside the operation, with the
///   context).
/// - A `downloadRequestModifier`, `downloadResponseModifier`, `downloadDecryptor` or `imageCoder` sends the
///   request through a separate `SDWebImageContextDownloadOperation` built like the downloader's own (headers,
///   headers filter, timeout, cookies, credentials), modified, and not joined with other downloads. A nil modified
///   request fails with `invalidDownloadOperation`; the response modifier runs when the response arrives, and a nil
///   answer fails with `invalidDownloadResponse` whether or not anyone holds the operation (V5-08). The decryptor
///   turns the whole body into the bytes that are decoded and delivered (V5-11); nil fails with `badImageData`.
///   With a context coder, the received bytes are decoded by it even when the shared coders rejected them.
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageDownloader.m:612` (`-requestImageWithURL:options:context:progress:completed:`), `SDWebImage/Core/SDWebImageDownloader.m:640` (`-shouldBlockFailedURLWithURL:error:`).
extension SDWebImageDownloader: SDImageLoader {
    /// Any URL (5.x returns YES for every non-nil URL; the transport reports unsupported schemes).
    public func canRequestImage(for url: URL?) -> Bool {
        url != nil
    }

    @discardableResult
    public func requestImage(
        with url: URL?, options: SDWebImageV5Options, context: SDWebImageContext?,
        progress: SDImageLoaderProgressBlock?,
        completed: SDImageLoaderCompletedBlock?
    ) -> (any SDWebImageOperation)? {
        guard let url else {
            completed?(nil, nil, SDWebImageV5Error.invalidURL(nil), true)
            return nil
        }
        let refreshing = options.contains(.refreshCached) && context?[.loaderCachedImage] is UIImage
        let downloaderOptions = options.downloaderOptions(refreshingCachedImage: refreshing)
        if context?.requestModifier != nil || context?.responseModifier != nil || context?.imageCoder != nil
            || context?.downloadDecryptor != nil
        {
            return requestWithContextOperation(
                url, options: options, downloaderOptions: downloaderOptions,
                context: context, progress: progress, completed: completed)
        }
        let decodesAgain =
            options.contains(.avoidDecodeImage) || options.contains(.decodeFirstFrameOnly)
            || context?.imageScaleFactor != nil || context?.thumbnailPixelSize != nil || context?.cacheKeyFilter != nil
        let decompress = self.shouldDecompressImages
        let request = SDWebImageDownloaderLoaderRequest(
            url: url, callbackQueue: callbackQueue(for: context),
            completed: completed)
        let answer: SDImageLoaderCompletedBlock = { image, data, error, finished in
            request.answer(image, data, error, finished)
        }
        let token = downloadImage(with: url, options: downloaderOptions, progress: progress) {
            image, data, error, finished in
            let error = Self.v5Error(error, url: url)
            guard decodesAgain, finished, error == nil, image != nil, let data else {
                answer(image, data, error, finished)
                return
            }
            Self.decode(data, url: url, options: options, context: context, decompress: decompress, completed: answer)
        }
        request.attach(token)
        return request
    }

    /// Where a cancel's answer goes: the context's callback queue, else this downloader's `completionQueue` (a port
    /// setting, main by default) with `SDCallbackQueue`'s policies. 5.x (5.15.0 on) uses the context's queue, else the
    /// main queue: it has no downloader `completionQueue`.
    private func callbackQueue(for context: SDWebImageContext?) -> SDCallbackQueue {
        context?.callbackQueue ?? SDCallbackQueue(completionQueue: config.completionQueue)
    }

    public func shouldBlockFailedURL(with url: URL, error: Error) -> Bool {
        let error = error as NSError
        switch error.domain {
        case SDWebImageErrorDomain:
            return error.code == SDWebImageV5Error.invalidURL(nil).errorCode
                || error.code == SDWebImageV5Error.badImageData("").errorCode
        case NSURLErrorDomain:
            let networkFailures: Set<Int> = [
                NSURLErrorNotConnectedToInternet, NSURLErrorCancelled, NSURLErrorTimedOut,
                NSURLErrorInternationalRoamingOff, NSURLErrorDataNotAllowed, NSURLErrorCannotFindHost,
                NSURLErrorCannotConnectToHost, NSURLErrorNetworkConnectionLost,
            ]
            return !networkFailures.contains(error.code)
        default:
            return false
        }
    }

    /// A 4.4.8 downloader error as 5.x's downloader reports it (see the type's documentation). A 304 with nothing
    /// cached becomes `InvalidDownloadStatusCode` (2001); chapter 09's table of errors says which 5.x versions report
    /// it so. One case differs: "Task can't be initialized" stays `NSURLErrorUnknown`, where 5.x reports
    /// `InvalidDownloadOperation` (2000).
    static func v5Error(_ error: Error?, url: URL) -> Error? {
        guard let error = error as NSError? else { return nil }
        if error.domain == NSURLErrorDomain, error.code == NSURLErrorCancelled,
            error.userInfo[SDWebImageDownloaderError.cancelledResponseKey] as? Bool == true,
            let status = error.userInfo[SDWebImageDownloaderError.statusCodeKey] as? Int
        {
            return SDWebImageV5Error.invalidDownloadStatusCode(status, url)
        }
        if error.domain == SDWebImageErrorDomain, error.code == 0 {
            let reason =
                (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.localizedDescription ?? error.localizedDescription
            return SDWebImageV5Error.badImageData(reason)
        }
        return error
    }

    // MARK: Context downloads

    private func requestWithContextOperation(
        _ url: URL, options: SDWebImageV5Options,
        downloaderOptions: SDWebImageDownloaderOptions, context: SDWebImageContext?,
        progress: SDImageLoaderProgressBlock?,
        completed: SDImageLoaderCompletedBlock?
    ) -> (any SDWebImageOperation)? {
        let settings = config  // one read: the settings of one moment, as the downloader's own operations get
        var request = Self.makeRequest(url: url, options: downloaderOptions, settings: settings)
        if let modifier = context?.requestModifier {
            guard let modified = modifier.modifiedRequest(with: request) else {
                completed?(
                    nil, nil,
                    SDWebImageV5Error.invalidDownloadOperation(
                        "the request modifier returned nil for \(url.absoluteString)"), true)
                return nil
            }
            request = modified
        }
        let decryptor = context?.downloadDecryptor
        // As 5.x: partial encrypted bytes cannot be decrypted, so a decryptor turns progressive decoding off.
        let operationOptions =
            decryptor == nil ? downloaderOptions : downloaderOptions.subtracting(.progressiveDownload)
        let operation = SDWebImageContextDownloadOperation(request: request, in: nil, options: operationOptions)
        configure(operation, settings: settings)
        operation.responseModifier = context?.responseModifier
        let decompress = settings.shouldDecompressImages
        let contextCoder = context?.imageCoder
        // The completion reads what the operation captured, never the operation: whether the caller still holds
        // the operation must not change the answer (V5-08).
        let capture = operation.capture
        _ = operation.addHandlers(forProgress: progress) { image, data, error, finished in
            guard finished else {
                completed?(image, data, error, finished)
                return
            }
            let received = capture.wrappedValue
            if received.responseRejected {
                completed?(nil, nil, SDWebImageV5Error.invalidDownloadResponse(url), true)
                return
            }
            let error = Self.v5Error(error, url: url)
            // Bytes the shared coders rejected may still be the context coder's format, or encrypted.
            let rejectedByCoders =
                (error as NSError?).map {
                    $0.domain == SDWebImageErrorDomain && $0.code == SDWebImageV5Error.badImageData("").errorCode
                } ?? false
            if let decryptor {
                guard error == nil || rejectedByCoders else {
                    completed?(nil, nil, error, true)
                    return
                }
                guard let decrypted = decryptor.decryptedData(with: received.data, response: received.response) else {
                    completed?(nil, nil, SDWebImageV5Error.badImageData("the decryptor gave no data"), true)
                    return
                }
                Self.decode(
                    decrypted, url: url, options: options, context: context, decompress: decompress,
                    completed: completed)
                return
            }
            if let error {
                if rejectedByCoders, contextCoder != nil, !received.data.isEmpty {
                    Self.decode(
                        received.data, url: url, options: options, context: context, decompress: decompress,
                        completed: completed)
                } else {
                    completed?(nil, nil, error, true)
                }
                return
            }
            guard image != nil, let data else {
                completed?(image, data, nil, true)
                return
            }
            Self.decode(
                data, url: url, options: options, context: context, decompress: decompress, completed: completed)
        }
        // One caller per context operation: a cancel before its completion answers 2002 (V5-12).
        let callbackQueue = callbackQueue(for: context)
        operation.whenCancelledBeforeCompletion {
            callbackQueue.async { completed?(nil, nil, SDWebImageV5Error.cancelled(url), true) }
        }
        SDWebImageTrace.record(.downloadStart, key: url.absoluteString, "context download operation")
        SDWebImageContextDownloadOperation.queue.addOperation(operation)
        return operation
    }

    private static func decode(
        _ data: Data, url: URL, options: SDWebImageV5Options, context: SDWebImageContext?,
        decompress: Bool, completed: SDImageLoaderCompletedBlock?
    ) {
        do {
            let image = try SDImageLoaderDecodeImageData(data, url, options, context, shouldDecompress: decompress)
            completed?(image, data, nil, true)
        } catch {
            completed?(nil, nil, error, true)
        }
    }
}
