import Foundation

/// What `sdport load` was given: an http(s) URL, or a local file.
///
/// A local file goes through the same path as a URL: the manager loads its `file://` URL (the downloader reads file
/// URLs as NSURLSession does, DL-17), so the cache key is that URL's absolute string, the MD5 file name is stable
/// from one run to the next, and a second load of the same path is a disk hit.
enum LoadSource: Sendable {
    case remote(URL)
    case localFile(URL)

    /// Reads the argument: http and https URLs are loaded as they are; `file://` URLs and plain paths must name a
    /// readable regular file; any other scheme is a usage error.
    static func parse(_ argument: String) throws -> LoadSource {
        if let url = URL(string: argument), let scheme = url.scheme?.lowercased(), scheme.count > 1 {
            switch scheme {
            case "http", "https":
                guard url.host?.isEmpty == false else {
                    throw SDPortFailure(.usage, "\(argument) has no host")
                }
                return .remote(url)
            case "file":
                return try localFile(url.path)
            default:
                throw SDPortFailure(
                    .usage, "unsupported URL scheme '\(scheme)' in \(argument) (use http, https or a file path)")
            }
        }
        return try localFile(argument)
    }

    private static func localFile(_ path: String) throws -> LoadSource {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw SDPortFailure(.loadFailed, "load failed: no such file: \(path)")
        }
        guard !isDirectory.boolValue else {
            throw SDPortFailure(.loadFailed, "load failed: \(path) is a directory, not an image file")
        }
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw SDPortFailure(.loadFailed, "load failed: \(path) is not readable")
        }
        return .localFile(url)
    }
}
