import Foundation
import SDPort

/// Makes the `SDImageCache` a command works on, and checks that its directory can be used.
enum CacheFactory {
    /// `SDImageCache.shared` (namespace "default" under the user caches directory), or, with `--cache-dir DIR`,
    /// a "default" cache in DIR (its files go to DIR/com.hackemist.SDWebImageCache.default).
    static func cache(for options: CacheDirectoryOptions) -> SDImageCache {
        guard let directory = options.cacheDirectory else { return SDImageCache.shared }
        let absolute = URL(fileURLWithPath: directory).standardizedFileURL.path
        return SDImageCache(namespace: "default", diskCacheDirectory: absolute)
    }

    /// The cache, after making sure its directory exists and is writable; otherwise a failure with exit code 3.
    ///
    /// The cache itself logs and carries on when a write fails (the image is still delivered from memory); the
    /// command checks first so that a wrong `--cache-dir` is reported instead of silently caching nothing.
    static func writableCache(for options: CacheDirectoryOptions) throws -> SDImageCache {
        let cache = cache(for: options)
        try checkWritable(cache.diskCachePath)
        return cache
    }

    /// Creates `path` if needed and checks that a file can be created in it.
    static func checkWritable(_ path: String) throws {
        if let failure = makeDirectories(path) {
            throw SDPortFailure(.cacheDirectoryUnusable, "cache directory \(path) cannot be created: \(failure)")
        }
        guard access(path, W_OK | X_OK) == 0 else {
            throw SDPortFailure(
                .cacheDirectoryUnusable,
                "cache directory \(path) is not writable: \(String(cString: strerror(errno)))")
        }
    }

    /// `mkdir -p` with the system's reason when it fails ("Permission denied", "Not a directory"): Foundation's
    /// `createDirectory` reports a generic message on Linux. Returns nil on success.
    static func makeDirectories(_ path: String) -> String? {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) == 0 || errno == EEXIST {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: current, isDirectory: &isDirectory), isDirectory.boolValue {
                    continue
                }
                return "\(current) is not a directory"
            }
            return "\(current): \(String(cString: strerror(errno)))"
        }
        return nil
    }

    /// The innermost POSIX reason of a Foundation file error ("Permission denied"), else its description.
    static func reason(of error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSCocoaErrorDomain, nsError.code == CocoaError.fileWriteNoPermission.rawValue {
            return "Permission denied"
        }
        return nsError.localizedDescription
    }
}
