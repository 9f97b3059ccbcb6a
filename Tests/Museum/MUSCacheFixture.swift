import Foundation
import SDPort
import SDPortTestSupport

/// A cache in a temporary directory and a small PNG image with its bytes, for the cache exhibits (MUS-11, 13, 14,
/// 15, 17, 19). `tearDown()` waits for the io queue, then removes the directory.
final class MUSCacheFixture: @unchecked Sendable {  // every property is set once, in init
    let directory: TemporaryDirectory
    let cache: SDImageCache
    let image: UIImage
    let data: Data

    init(_ namespace: String) throws {
        directory = try TemporaryDirectory(prefix: "sdport-\(namespace)")
        cache = SDImageCache(namespace: namespace, diskCacheDirectory: directory.path)
        image = UIImage(
            pixelWidth: 4, pixelHeight: 4, pixels: [UInt8](repeating: 99, count: 64), hasAlpha: false, format: .png)
        guard let encoded = SDWebImageCodersManager.shared.encodedData(with: image, format: .png) else {
            throw CocoaError(.coderInvalidValue)
        }
        data = encoded
    }

    /// Sets a file's access and modification times (seconds since 1970) with `utimensat`.
    static func setTimes(_ path: String, access: TimeInterval, modification: TimeInterval) {
        var times = [timespec(tv_sec: Int(access), tv_nsec: 0), timespec(tv_sec: Int(modification), tv_nsec: 0)]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }

    /// A file's access time in whole seconds, from `stat`.
    static func accessTime(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_atim.tv_sec)
    }

    func tearDown() {
        cache.clearMemory()
        _ = cache.getSize()  // runs on the io queue: every queued write is done
        directory.remove()
    }
}
