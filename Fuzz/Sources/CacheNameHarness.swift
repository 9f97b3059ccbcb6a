import Foundation
import SDPort

/// Cache file names for arbitrary keys: the name is one path component (no "/", no NUL, not "." or "..",
/// not empty, at most 255 bytes), and the key's path is directly inside the cache directory.
enum CacheNameHarness {
    /// Never written to: only paths are computed.
    static let cache = SDImageCache(namespace: "fuzz", diskCacheDirectory: "/nonexistent/sdport-fuzz")

    static func run(_ data: Data) {
        // Two views of the same bytes: as UTF-8 (invalid sequences replaced) and as Latin-1 (every byte a
        // character, NUL and "/" included).
        let keys = [String(decoding: data, as: UTF8.self), String(data.map { Character(Unicode.Scalar($0)) })]
        for key in keys {
            let name = SDImageCache.cachedFileName(forKey: key)
            precondition(!name.isEmpty && name != "." && name != "..", "unusable name \(name.debugDescription)")
            precondition(!name.utf8.contains(UInt8(ascii: "/")) && !name.utf8.contains(0), "name is not one component")
            precondition(name.utf8.count <= 255, "name longer than NAME_MAX")
            guard let path = cache.defaultCachePath(forKey: key) else { preconditionFailure("no path for a key") }
            precondition(
                (path as NSString).deletingLastPathComponent == cache.diskCachePath,
                "path leaves the cache directory: \(path.debugDescription)")
        }
    }
}
