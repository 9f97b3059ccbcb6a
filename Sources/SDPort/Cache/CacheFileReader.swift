import Foundation
import Glibc

/// Reads a whole regular file with `open`/`fstat`/`read` into one buffer handed to `Data` without a copy.
///
/// The port's fast path for cache reads with no `diskCacheReadingOptions` (the original reads with
/// `+[NSData dataWithContentsOfFile:options:error:]`); Foundation's `Data(contentsOf:)` is used when options
/// are set. Returns nil for a missing file, a directory or any read error.
/// At tag 4.4.8: `SDWebImage/SDImageCache.m:442` (`-diskImageDataBySearchingAllPathsForKey:`).
enum CacheFileReader {
    static func contents(atPath path: String) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let expected = Int(info.st_size)
        guard expected > 0 else { return Data() }
        guard let buffer = malloc(expected) else { return nil }
        var filled = 0
        while filled < expected {
            let count = read(descriptor, buffer + filled, expected - filled)
            if count < 0 {
                if errno == EINTR { continue }
                free(buffer)
                return nil
            }
            if count == 0 { break }  // the file shrank under us: return what is there
            filled += count
        }
        return Data(bytesNoCopy: buffer, count: filled, deallocator: .free)
    }
}
