import Foundation
import SDPort
import XCTest

extension XCTestCase {
    /// Starts one download of `url` and waits for its final completion; the recorder holds every progress call
    /// and completion it reported. Shared by the downloader's behaviour and interview tests.
    public func downloadAndWait(
        _ downloader: SDWebImageDownloader, _ url: URL, options: SDWebImageDownloaderOptions = [],
        timeout: TimeInterval = 30
    ) -> DownloadRecorder {
        let done = expectation(description: "download \(url.path)")
        let recorder = DownloadRecorder { done.fulfill() }
        downloader.downloadImage(
            with: url, options: options, progress: recorder.progress, completed: recorder.completed)
        wait(for: [done], timeout: timeout)
        return recorder
    }
}

extension SDWebImageDownloader {
    /// A downloader whose HTTP protocol cache (`URLCache`) lives in `directory`, so protocol-cache tests start
    /// empty and leave nothing behind.
    public static func withProtocolCache(in directory: TemporaryDirectory) -> SDWebImageDownloader {
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = URLCache(memoryCapacity: 1 << 20, diskCapacity: 8 << 20, diskPath: directory.path)
        return SDWebImageDownloader(sessionConfiguration: configuration)
    }
}
