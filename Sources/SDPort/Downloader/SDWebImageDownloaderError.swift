import CCurl
import Foundation

/// Builds the downloader's errors, each with a message that says what happened and to which URL.
///
/// The original gets its network errors from NSURLSession (`NSURLErrorDomain`); this port gets libcurl result
/// codes and maps them onto the same `NSURLErrorDomain` codes, so callers (and the manager's failed-URL rule)
/// can test them the same way. The errors the original makes itself keep its domains: `SDWebImageErrorDomain` code 0
/// for no data or no pixels and -1 for the view's nil URL; `NSURLErrorDomain` for "Task can't be initialized" and
/// the manager's failed or empty URL (-1100).
enum SDWebImageDownloaderError {
    /// The userInfo key carrying the HTTP status of a cancelled response (4.0–4.2 made the status the error code).
    static let statusCodeKey = "statusCode"
    /// The userInfo key marking a cancel that answered an invalid response (not a user's or a challenge's cancel),
    /// so the 5.x loader can report it as `InvalidDownloadStatusCode` (port addition).
    static let cancelledResponseKey = "SDPortCancelledResponse"
    /// The userInfo key carrying the libcurl result code behind a transport error (port addition).
    static let curlCodeKey = "SDPortCurlCode"

    /// An error in `NSURLErrorDomain` about `url`.
    static func urlError(_ code: Int, _ description: String, url: URL?, extra: [String: Any] = [:]) -> NSError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: description]
        if let url {
            info[NSURLErrorFailingURLErrorKey] = url
        }
        info.merge(extra) { _, new in new }
        return NSError(domain: NSURLErrorDomain, code: code, userInfo: info)
    }

    /// The transfer was cancelled (NSURLErrorCancelled, -999).
    static func cancelled(_ url: URL?) -> NSError {
        urlError(NSURLErrorCancelled, "Cancelled download of \(describe(url))", url: url)
    }

    /// No bytes arrived for `interval` seconds (NSURLErrorTimedOut, -1001).
    static func timedOut(after interval: TimeInterval, url: URL?) -> NSError {
        urlError(NSURLErrorTimedOut, "Timed out after \(format(interval)) s waiting for \(describe(url))", url: url)
    }

    /// An HTTP status the downloader does not accept (>= 400, or a 304 with no cached data, which is looked up only
    /// with `IgnoreCachedResponse`). 4.4.8's default operation class answers such a response with
    /// `NSURLSessionResponseCancel`, so the task ends with `NSURLErrorCancelled` (-999), which the
    /// manager never blacklists unless its delegate decides otherwise (MGR-06). The port keeps that code and adds what
    /// NSURLSession would lose: the status in userInfo `statusCode` and in the description ("HTTP 404 Not Found for
    /// …").
    static func responseCancelled(status: Int, reason: String?, url: URL?) -> NSError {
        let phrase = (reason?.isEmpty == false ? reason! : HTTPURLResponse.localizedString(forStatusCode: status))
        var description = "HTTP \(status) \(phrase) for \(describe(url))"
        if status == 304 { description += " (Not Modified, but nothing is cached for it)" }
        description += "; the response was cancelled"
        return urlError(
            NSURLErrorCancelled, description, url: url, extra: [statusCodeKey: status, cancelledResponseKey: true])
    }

    /// An authentication challenge answered with "cancel" (no credential, or the credential was rejected):
    /// 4.4.8's `NSURLSessionAuthChallengeCancelAuthenticationChallenge` ends the task with `NSURLErrorCancelled`.
    static func challengeCancelled(status: Int, url: URL?, rejectedCredential: Bool) -> NSError {
        let why = rejectedCredential ? "the credential was rejected" : "no credential was given"
        return urlError(
            NSURLErrorCancelled,
            "HTTP \(status) authentication required for \(describe(url)); \(why), so the challenge was cancelled",
            url: url, extra: [statusCodeKey: status])
    }

    /// The protocol cache was the only allowed source and had nothing (NSURLErrorResourceUnavailable, -1008).
    static func notInCache(_ url: URL?) -> NSError {
        urlError(
            NSURLErrorResourceUnavailable,
            "Nothing in the protocol cache for \(describe(url)) and the cache policy forbids loading it", url: url)
    }

    /// The operation got no task (OP-01): 4.4.8's text, "Task can't be initialized", with the reason the port
    /// knows in `NSLocalizedFailureReasonErrorKey` (`SDWebImageDownloaderOperation.m:202`; 4.0–4.2 said "Connection
    /// can't be initialized").
    static func taskCannotBeInitialized(_ url: URL?, reason: String) -> NSError {
        urlError(
            NSURLErrorUnknown, "Task can't be initialized", url: url,
            extra: [NSLocalizedFailureReasonErrorKey: "\(describe(url)): \(reason)"])
    }

    /// A transfer could not start or go on (libcurl refused a handle, or the session was invalidated meanwhile).
    static func cannotStart(_ url: URL?, reason: String) -> NSError {
        urlError(NSURLErrorUnknown, "Cannot start the transfer of \(describe(url)): \(reason)", url: url)
    }

    /// A `file:` URL that cannot be read, with the code NSURLSession gives: NSURLErrorFileDoesNotExist (-1100),
    /// NSURLErrorFileIsDirectory (-1101) or NSURLErrorNoPermissionsToReadFile (-1102) (DL-17).
    static func fileUnreadable(_ url: URL, code: Int, reason: String) -> NSError {
        urlError(code, "Cannot read \(url.path): \(reason)", url: url)
    }

    /// Maps a libcurl result onto an NSURLErrorDomain error. `detail` is libcurl's error buffer text.
    static func transport(_ code: CURLcode, detail: String, url: URL?, received: Int, expected: Int) -> NSError {
        let curlText = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        let target = describe(url)
        let urlCode: Int
        let what: String
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            urlCode = NSURLErrorTimedOut
            what = "Timed out waiting for \(target)"
        case CURLE_COULDNT_CONNECT:
            urlCode = NSURLErrorCannotConnectToHost
            what = "Cannot connect to \(target)"
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            urlCode = NSURLErrorCannotFindHost
            what = "Cannot find the host of \(target)"
        case CURLE_PARTIAL_FILE:
            urlCode = NSURLErrorNetworkConnectionLost
            what =
                expected > 0
                ? "Connection lost after \(received) of \(expected) bytes from \(target)"
                : "Connection lost after \(received) bytes from \(target)"
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR:
            urlCode = NSURLErrorNetworkConnectionLost
            what = "Connection lost (reset or closed by the server) after \(received) bytes from \(target)"
        case CURLE_TOO_MANY_REDIRECTS:
            urlCode = NSURLErrorHTTPTooManyRedirects
            what = "Too many redirects (a redirect loop?) for \(target)"
        case CURLE_PEER_FAILED_VERIFICATION:
            urlCode = NSURLErrorServerCertificateUntrusted
            what = "The server's TLS certificate is not trusted for \(target)"
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_ENGINE_NOTFOUND:
            urlCode = NSURLErrorSecureConnectionFailed
            what = "TLS connection failed for \(target)"
        case CURLE_UNSUPPORTED_PROTOCOL:
            urlCode = NSURLErrorUnsupportedURL
            what = "Unsupported URL scheme in \(target)"
        case CURLE_URL_MALFORMAT:
            urlCode = NSURLErrorBadURL
            what = "Malformed URL \(target)"
        case CURLE_BAD_CONTENT_ENCODING:
            urlCode = NSURLErrorCannotDecodeContentData
            what = "Cannot decode the content encoding of \(target)"
        case CURLE_WEIRD_SERVER_REPLY:
            urlCode = NSURLErrorBadServerResponse
            what = "Malformed HTTP response from \(target)"
        case CURLE_ABORTED_BY_CALLBACK:
            urlCode = NSURLErrorCancelled
            what = "Cancelled download of \(target)"
        default:
            urlCode = NSURLErrorUnknown
            what = "Download of \(target) failed"
        }
        return urlError(
            urlCode, "\(what): \(curlText) (libcurl error \(code.rawValue))", url: url,
            extra: [curlCodeKey: Int(code.rawValue)])
    }

    /// An error the original makes in `SDWebImageErrorDomain` with code 0 ("Image data is nil", "0 pixels").
    static func imageError(_ description: String) -> NSError {
        NSError(domain: SDWebImageErrorDomain, code: 0, userInfo: [NSLocalizedDescriptionKey: description])
    }

    /// Data that arrived but did not decode. 4.4.8's coders return nil, so the image has no size and the error is
    /// `SDWebImageErrorDomain` code 0 "Downloaded image has 0 pixels" (OP-04); the port keeps exactly that and adds
    /// the coder's reason as `NSUnderlyingErrorKey`, so a tool can still say why.
    static func zeroPixels(underlying: Error?) -> NSError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: "Downloaded image has 0 pixels"]
        if let underlying { info[NSUnderlyingErrorKey] = underlying as NSError }
        return NSError(domain: SDWebImageErrorDomain, code: 0, userInfo: info)
    }

    /// Why downloaded bytes did not decode: the coder's reason, with its code. The underlying error of
    /// `zeroPixels`, so `sdport` and other tools can say more than 4.4.8's message does.
    static func undecodable(_ underlying: Error, url: URL?, byteCount: Int) -> NSError {
        let reason = (underlying as? LocalizedError)?.errorDescription ?? String(describing: underlying)
        let code = (underlying as NSError).domain == SDWebImageErrorDomain ? (underlying as NSError).code : 0
        return NSError(
            domain: SDWebImageErrorDomain, code: code,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "Downloaded data is not a decodable image (\(byteCount) bytes from \(describe(url))): \(reason)",
                NSUnderlyingErrorKey: underlying as NSError,
            ])
    }

    private static func describe(_ url: URL?) -> String { url?.absoluteString ?? "(no URL)" }

    private static func format(_ interval: TimeInterval) -> String {
        interval == interval.rounded() ? String(Int(interval)) : String(interval)
    }
}
