import Foundation
import Glibc

/// Writes a file so that it appears whole or not at all: the bytes go to a hidden temporary file in the
/// same directory, which is then renamed over the destination (rename within one directory is atomic on
/// POSIX file systems). On any failure the temporary file is removed.
///
/// Not in the original, which writes with `NSDataWritingAtomic` (the same idea, inside Foundation). Written
/// with POSIX calls so a failure reports its `errno` and the cache can tell "directory missing" (create it and
/// retry) from "cannot write" (report it).
enum AtomicFileWriter {
    /// The name prefix of temporary files; hidden, so the cleanup and size counts skip them.
    static let temporaryPrefix = ".sdport-tmp-"

    /// A failed step and its `errno`.
    struct Failure: Error {
        let code: Int32
        var reason: String { String(cString: strerror(code)) }
        var isMissingDirectory: Bool { code == ENOENT }
    }

    /// Writes `data` to `path`, whose directory must exist.
    static func write(_ data: Data, to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let temporaryPath = (directory as NSString).appendingPathComponent(
            temporaryPrefix + (path as NSString).lastPathComponent.prefix(32) + "-" + UUID().uuidString)
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
