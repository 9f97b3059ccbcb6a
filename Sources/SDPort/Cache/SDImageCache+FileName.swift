import COpenSSLMD5
import Foundation

/// Cache file names (FAQ-03).
///
/// Ports `-[SDImageCache cachedFileNameForKey:]` (4.4.8): the MD5 of the key as 32 lowercase hex digits, then
/// "." and the path extension of the key read as a URL (so the query of a key that parses as a URL never makes an
/// extension), or of the plain string when it is not a URL; no extension gives the bare hash. An extension longer
/// than `NAME_MAX − 33` = 222 is dropped (4.4.3+), so the name fits in NAME_MAX bytes (the original's count differs:
/// see below).
///
/// Differences, all in the direction of safety: the original hashes the key's C string, which stops at the
/// first NUL; the port hashes every UTF-8 byte. The original measures the extension in UTF-16 units, the port
/// in UTF-8 bytes (Linux's NAME_MAX counts bytes; the same for ASCII). Characters Linux cannot have in a file
/// name (NUL, "/") are removed from the extension (5.x's `SDSanitizeFileNameString`, since 5.19.7, removes NUL
/// and ":").
/// Whatever the key, the name is one path component starting with the hash, so it never leaves the directory.
/// At tag 4.4.8: `SDWebImage/SDImageCache.m:245` (`-cachedFileNameForKey:`).
/// At tag 5.21.5: `SDWebImage/Core/SDDiskCache.m:360` (`SDDiskCacheFileNameForKey`), `SDWebImage/Core/SDDiskCache.m:345` (`SDSanitizeFileNameString`).
extension SDImageCache {
    /// The longest extension kept: NAME_MAX (255) − 32 hex digits − the dot.
    public static let maxFileExtensionLength = 255 - 32 - 1

    /// The file name for `key` (a nil key hashes as the empty string, as the original).
    public static func cachedFileName(forKey key: String?) -> String {
        let key = key ?? ""
        let hash = md5Hex(key)
        let fileExtension = sanitizedFileExtension(forKey: key)
        return fileExtension.isEmpty ? hash : hash + "." + fileExtension
    }

    /// Lowercase hex MD5 of the UTF-8 bytes (libcrypto's one-shot `EVP_Digest`, where 4.4.8 calls `CC_MD5`).
    static func md5Hex(_ string: String) -> String {
        var utf8 = string
        // The digest on the stack: this runs for every disk lookup and store.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { digest in
            let succeeded = utf8.withUTF8 { bytes in
                EVP_Digest(bytes.baseAddress, bytes.count, digest.baseAddress, nil, md5Method ?? EVP_md5(), nil) == 1
            }
            // EVP_Digest fails only without memory or without the MD5 implementation, which every libcrypto has.
            precondition(succeeded, "libcrypto could not compute an MD5")
            return String(unsafeUninitializedCapacity: 32) { hex in
                var index = 0
                for byte in digest {
                    hex[index] = hexDigits[Int(byte >> 4)]
                    hex[index + 1] = hexDigits[Int(byte & 0x0F)]
                    index += 2
                }
                return 32
            }
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// libcrypto's MD5, fetched once: handed `EVP_md5()`, OpenSSL 3 looks the method up again on every digest (an
    /// implicit fetch; Benchmarks/README.md has the cost). Never written after its initialization, and a fetched
    /// method may be used by any number of threads at once, hence `unsafe`. Nil (MD5 missing from the default
    /// provider) falls back to `EVP_md5()`.
    private nonisolated(unsafe) static let md5Method = EVP_MD_fetch(nil, "MD5", nil)

    /// `NSString.pathExtension` for a key that is no URL, computed here because swift-corelibs-foundation's
    /// traps (index out of range) on a "//" followed by a non-ASCII character, such as "a//é" (found by the
    /// `cachename` fuzz harness; `Fixtures/fuzz/cachename-double-slash-non-ascii.key`). Same rule: trailing slashes
    /// are ignored, the extension is what follows the last "." of the last component, and a component that starts
    /// with its only dot (".png", a hidden name) or is ".." has none.
    static func pathExtension(ofPath path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        let component = trimmed.lastIndex(of: "/").map { trimmed[trimmed.index(after: $0)...] } ?? trimmed
        guard component != "..", let dot = component.lastIndex(of: "."), dot != component.startIndex else { return "" }
        return String(component[component.index(after: dot)...])
    }

    private static func sanitizedFileExtension(forKey key: String) -> String {
        let raw = URL(string: key)?.pathExtension ?? pathExtension(ofPath: key)
        var fileExtension = raw
        // By scalar, not by Character: "/" followed by a combining mark ("/\u{650}") is one Character that is not
        // equal to "/", and it left a "/" in the name (found by the cachename fuzz harness).
        if fileExtension.unicodeScalars.contains(where: { $0 == "\0" || $0 == "/" }) {
            fileExtension.unicodeScalars.removeAll { $0 == "\0" || $0 == "/" }
        }
        return fileExtension.utf8.count > maxFileExtensionLength ? "" : fileExtension
    }
}
