import Crypto
import Foundation

/// Cache file names (FAQ-03).
///
/// Ports `-[SDImageCache cachedFileNameForKey:]` (4.4.8): the MD5 of the key as 32 lowercase hex digits, then
/// "." and the path extension of the key read as a URL (so a query string never makes an extension), or of the
/// plain string when it is not a URL; no extension gives the bare hash. An extension longer than
/// `NAME_MAX − 33` = 222 is dropped (4.4.3+), so the name always fits the file system.
///
/// Differences, all in the direction of safety: the original hashes the key's C string, which stops at the
/// first NUL; the port hashes every UTF-8 byte. The original measures the extension in UTF-16 units, the port
/// in UTF-8 bytes (Linux's NAME_MAX counts bytes; the same for ASCII). Characters Linux cannot have in a file
/// name (NUL, "/") are removed from the extension (5.x's `SDSanitizeFileNameString` removes NUL and ":").
/// Whatever the key, the name is one path component starting with the hash, so it never leaves the directory.
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

    /// Lowercase hex MD5 of the UTF-8 bytes.
    static func md5Hex(_ string: String) -> String {
        var utf8 = string
        let digest = utf8.withUTF8 { Insecure.MD5.hash(data: UnsafeRawBufferPointer($0)) }
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

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private static func sanitizedFileExtension(forKey key: String) -> String {
        let raw = URL(string: key)?.pathExtension ?? (key as NSString).pathExtension
        var fileExtension = raw
        if fileExtension.contains(where: { $0 == "\0" || $0 == "/" }) {
            fileExtension.removeAll { $0 == "\0" || $0 == "/" }
        }
        return fileExtension.utf8.count > maxFileExtensionLength ? "" : fileExtension
    }
}
