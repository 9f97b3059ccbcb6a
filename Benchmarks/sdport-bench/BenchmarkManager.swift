import CTurboJPEG
import Foundation
import SDPort

/// What several suites set up the same way: a manager over its own cache directory whose cache, downloader and
/// manager all answer on one queue (the benchmarks' main thread waits, so nothing may need the main queue), and
/// RGB pixels encoded as JPEG with TurboJPEG.
enum BenchmarkManager {
    static func make(cacheDirectory: String, namespace: String, queue: DispatchQueue)
        -> (cache: SDImageCache, downloader: SDWebImageDownloader, manager: SDWebImageManager)
    {
        let cache = SDImageCache(namespace: namespace, diskCacheDirectory: cacheDirectory)
        cache.completionQueue = queue
        let downloader = SDWebImageDownloader()
        downloader.completionQueue = queue
        let manager = SDWebImageManager(cache: cache, downloader: downloader)
        manager.completionQueue = queue
        return (cache, downloader, manager)
    }

    /// Packed RGB pixels as a quality-90, 4:2:0 JPEG.
    static func encodeJPEG(rgb pixels: [UInt8], width: Int, height: Int) throws -> Data {
        guard let handle = tjInitCompress() else { throw DownloaderBenchmarks.BenchmarkError.failed("tjInitCompress") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let result = pixels.withUnsafeBufferPointer { buffer in
            tjCompress2(
                handle, buffer.baseAddress, Int32(width), 0, Int32(height), Int32(TJPF_RGB.rawValue),
                &output, &size, Int32(TJSAMP_420.rawValue), 90, 0)
        }
        defer { tjFree(output) }
        guard result == 0, let output else { throw DownloaderBenchmarks.BenchmarkError.failed("tjCompress2 failed") }
        return Data(bytes: output, count: Int(size))
    }
}
