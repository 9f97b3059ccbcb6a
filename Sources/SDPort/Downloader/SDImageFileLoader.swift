import Foundation

/// Loads `file://` URLs from the local disk and decodes them through the coders (V5-03).
///
/// Not in SDWebImage itself: it is the kind of custom loader article A3 (`Docs/articles.md`) describes (its example is
/// the Photos library plugin, `SDWebImagePhotosPlugin`), and shows the `SDImageLoader` protocol with a real source.
/// 5.x's downloader would also fetch `file://` URLs through NSURLSession; the port's libcurl downloader can too, but
/// this loader skips the network stack and reports file-system errors as they are.
///
/// - Reading and decoding run on `ioQueue` (concurrent, utility QoS). Progress is reported once the size is
///   known (0 of n) and once read (n of n).
/// - Errors: a missing or unreadable file gives the Foundation error of the read (`NSCocoaErrorDomain`, for
///   example `NSFileReadNoSuchFileError`), a non-file URL `SDWebImageV5Error.invalidURL`, bad bytes
///   `SDWebImageV5Error.badImageData`.
/// - Failed-URL list: only files whose bytes do not decode are blocked; a missing or unreadable file may appear
///   or become readable later, so it is not.
/// - Completions run on `ioQueue`; the manager moves them to its own queue.
/// At tag 5.21.5: `SDWebImage/Core/SDImageLoader.h:112` (`-requestImageWithURL:options:context:progress:completed:`).
public final class SDImageFileLoader: SDImageLoader {
    /// The shared file loader.
    public static let shared = SDImageFileLoader()

    /// Where files are read and decoded.
    public let ioQueue = DispatchQueue(label: "com.hackemist.SDImageFileLoader", qos: .utility, attributes: .concurrent)

    /// Whether decoded images are force-decoded (as the downloader's `shouldDecompressImages`); `avoidDecodeImage`
    /// turns it off per request.
    public let shouldDecompressImages: Bool

    /// A loader; with `shouldDecompressImages` false it never force-decodes.
    public init(shouldDecompressImages: Bool = true) {
        self.shouldDecompressImages = shouldDecompressImages
    }

    public func canRequestImage(for url: URL?) -> Bool {
        url?.isFileURL ?? false
    }

    @discardableResult
    public func requestImage(
        with url: URL?, options: SDWebImageV5Options, context: SDWebImageContext?,
        progress: SDImageLoaderProgressBlock?,
        completed: SDImageLoaderCompletedBlock?
    ) -> (any SDWebImageOperation)? {
        guard let url, url.isFileURL else {
            completed?(nil, nil, SDWebImageV5Error.invalidURL(url), true)
            return nil
        }
        let operation = SDImageFileLoaderOperation(url: url)
        let decompress = shouldDecompressImages
        SDWebImageTrace.record(.downloadStart, key: url.absoluteString, "file loader")
        ioQueue.async {
            guard !operation.isCancelled else { return }
            let data: Data
            do {
                let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? -1
                progress?(0, size, url)
                data = try Data(contentsOf: url)
            } catch {
                SDWebImageTrace.record(
                    .downloadResponse, key: url.absoluteString, "failed: \(error.localizedDescription)")
                if !operation.isCancelled { completed?(nil, nil, error, true) }
                return
            }
            SDWebImageTrace.record(.downloadResponse, key: url.absoluteString, "file, \(data.count) bytes")
            progress?(data.count, data.count, url)
            guard !operation.isCancelled else { return }
            do {
                let image = try SDImageLoaderDecodeImageData(data, url, options, context, shouldDecompress: decompress)
                if !operation.isCancelled { completed?(image, data, nil, true) }
            } catch {
                if !operation.isCancelled { completed?(nil, nil, error, true) }
            }
        }
        return operation
    }

    public func shouldBlockFailedURL(with url: URL, error: Error) -> Bool {
        let nsError = error as NSError
        return nsError.domain == SDWebImageErrorDomain && nsError.code == SDWebImageV5Error.badImageData("").errorCode
    }
}
