import Foundation

/// One line that says why a load failed, from the library's error.
///
/// The downloader's and coders' errors already carry a sentence naming the URL ("HTTP 404 Not Found for …",
/// "Could not connect to …"); this keeps it on one line and adds the code for the ones that need it.
enum LoadFailureText {
    static func line(for error: Error, source: String) -> String {
        let nsError = error as NSError
        var text = nsError.localizedDescription
            .split(whereSeparator: \.isNewline).joined(separator: " ")
        if text.isEmpty || text.hasPrefix("The operation could not be completed") {
            text = "\(nsError.domain) error \(nsError.code)"
        }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError {
            // "Downloaded image has 0 pixels" is 4.4.8's whole message; the coder's reason says why.
            text += ": " + underlying.localizedDescription.split(whereSeparator: \.isNewline).joined(separator: " ")
        }
        if nsError.domain == NSURLErrorDomain, nsError.code == NSURLErrorFileDoesNotExist {
            // The manager's answer for a nil, empty or blacklisted URL (FAQ-10, FAQ-17).
            text =
                "the manager refused \(source): the URL is empty or on the failed-URL list (NSURLErrorFileDoesNotExist)"
        }
        return "load failed: \(text)"
    }
}
