import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// Shared set-up for the cache behaviour tests: a fresh temporary directory per test and a cache in it.
class CACHETestCase: XCTestCase {
    /// The temporary directory the cache lives in (removed after the test).
    var directory: TemporaryDirectory!
    /// A cache with namespace "test" inside `directory`.
    var cache: SDImageCache!

    override func setUpWithError() throws {
        try super.setUpWithError()
        directory = try TemporaryDirectory(prefix: "sdport-cache")
        cache = SDImageCache(namespace: "test", diskCacheDirectory: directory.path)
    }

    override func tearDown() {
        cache = nil
        directory?.remove()
        directory = nil
        super.tearDown()
    }

    /// Stores `data` on disk for `key` through the cache (no encoding) and waits for the completion.
    func storeData(
        _ data: Data, forKey key: String, image: UIImage = CACHETestImages.opaque(width: 2, height: 2),
        in cache: SDImageCache? = nil, file: StaticString = #filePath, line: UInt = #line
    ) {
        let target = cache ?? self.cache!
        let stored = expectation(description: "stored \(key.prefix(40))")
        target.store(image, imageData: data, forKey: key, toDisk: true) { stored.fulfill() }
        wait(for: [stored], timeout: 10)
    }

    /// Waits until every block already submitted to the cache's io queue, then to the main queue, has run.
    func drainQueues(_ cache: SDImageCache? = nil) {
        let target = cache ?? self.cache!
        target.ioQueue.sync {}
        let mainDrained = expectation(description: "main queue drained")
        DispatchQueue.main.async { mainDrained.fulfill() }
        wait(for: [mainDrained], timeout: 10)
    }

    /// The names in the cache directory, sorted.
    func cacheDirectoryNames(_ cache: SDImageCache? = nil) -> [String] {
        let target = cache ?? self.cache!
        return ((try? FileManager.default.contentsOfDirectory(atPath: target.diskCachePath)) ?? []).sorted()
    }

    /// Sets a file's modification date (and, on Linux, its access date too).
    func setDate(_ date: Date, ofFileAt path: String) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
    }

    /// Space the file takes on disk: `st_blocks * 512`.
    func allocatedSize(ofFileAt path: String) -> UInt64 {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        return UInt64(info.st_blocks) * 512
    }
}

/// Images built from pixels, for tests that do not need a decoder.
enum CACHETestImages {
    /// An opaque image filled with one colour.
    static func opaque(width: Int, height: Int, scale: CGFloat = 1, red: UInt8 = 200) -> UIImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            pixels[i] = red
            pixels[i + 1] = 30
            pixels[i + 2] = 60
        }
        return UIImage(pixelWidth: width, pixelHeight: height, pixels: pixels, hasAlpha: false, scale: scale)
    }

    /// An image with transparent pixels.
    static func translucent(width: Int, height: Int) -> UIImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            pixels[i] = 10
            pixels[i + 1] = 200
            pixels[i + 3] = 100
        }
        return UIImage(pixelWidth: width, pixelHeight: height, pixels: pixels, hasAlpha: true)
    }

    /// An animated image with `frames` opaque frames.
    static func animated(width: Int, height: Int, frames: Int) -> UIImage {
        let images = (0..<frames).map { opaque(width: width, height: height, red: UInt8(40 * $0)) }
        return UIImage(animatedImages: images, duration: 0.1 * Double(frames), format: .gif)!
    }
}

/// A value written from one closure and read from another, guarded by a lock.
final class CACHELocked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func set(_ newValue: Value) { lock.withLock { stored = newValue } }
    func mutate(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}
