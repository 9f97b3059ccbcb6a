import Foundation
import Glibc
import Synchronization

/// Writes a file so that it appears whole or not at all: the bytes go to a hidden temporary file in the
/// same directory, which is then renamed over the destination (rename within one directory is atomic on
/// POSIX file systems). On any failure the temporary file is removed.
///
/// Not in the original, which writes with `NSDataWritingAtomic` by default (its `diskCacheWritingOptions`; the
/// same idea, inside Foundation). Written
/// with POSIX calls so a failure reports its `errno` and the cache can tell "directory missing" (create it and
/// retry) from "cannot write" (report it).
/// At tag 4.4.8: `SDWebImage/SDImageCache.m:341` (`-_storeImageDataToDisk:forKey:`).
enum AtomicFileWriter {
    /// The name prefix of temporary files; hidden, so the cleanup and size counts skip them.
    static let temporaryPrefix = ".sdport-tmp-"

    /// The last number given to a temporary file.
    private static let sequence = Mutex<UInt64>(0)

    /// Unique among this process's writes (the counter) and across processes (the pid); `O_EXCL` catches the rest.
    private static func uniqueSuffix() -> String {
        let number = sequence.withLock { value -> UInt64 in
            value &+= 1
            return value
        }
        return "\(getpid())-\(number)"
    }

    /// A failed step and its `errno`.
    struct Failure: Error {
        let code: Int32
        var reason: String { String(cString: strerror(code)) }
        var isMissingDirectory: Bool { code == ENOENT }
    }

    /// Writes `data` as `directory`/`fileName`; the directory must exist.
    static func write(_ data: Data, toDirectory directory: String, fileName: String) throws {
        let path = SDImageCache.join(directory, fileName)
        let temporaryPath = SDImageCache.join(directory, temporaryPrefix + fileName.prefix(32) + "-" + uniqueSuffix())
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(code: errno) }
        var failure: Int32 = 0
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporaryPath, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporaryPath)
            throw Failure(code: failure)
        }
    }
}
