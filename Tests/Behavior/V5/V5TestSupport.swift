import Foundation
import SDPort
import SDPortTestSupport

extension ManagerTestEnvironment {
    /// Loads `url` through the 5.x entry and waits (running the main queue) for the finished completion.
    /// Returns every call received by then.
    func loadV5(
        _ url: URL?, options: SDWebImageV5Options = [], context: SDWebImageContext? = nil,
        manager: SDWebImageManager? = nil, timeout: TimeInterval = 15
    ) -> [CompletionCall] {
        let calls = Recorder<CompletionCall>()
        (manager ?? self.manager).loadImage(with: url, options: options, context: context) {
            image, data, error, cacheType, finished, imageURL in
            calls.append(
                CompletionCall(
                    image: image, data: data, error: error, cacheType: cacheType,
                    finished: finished, url: imageURL))
        }
        waitUntil(timeout: timeout) { calls.values.contains { $0.finished } }
        return calls.values
    }

    /// For a test that shows a callback does NOT come: waits for the event that would carry it -- the cancelled
    /// downloads have left the downloader's queue and its URL table, and the server has seen their connections
    /// end -- then runs the main queue, where such a callback would be queued by then. False if they never end.
    func waitForDownloadsToEnd(timeout: TimeInterval = 15) -> Bool {
        let ended = waitUntil(timeout: timeout) {
            self.downloader.currentDownloadCount == 0 && self.downloader.runningURLCount == 0
                && self.server.requestsInFlight == 0
        }
        drainMainQueue()
        return ended
    }

    /// The first finished call of `loadV5`, or nil when none came.
    func loadV5Finished(
        _ url: URL?, options: SDWebImageV5Options = [], context: SDWebImageContext? = nil,
        manager: SDWebImageManager? = nil
    ) -> CompletionCall? {
        loadV5(url, options: options, context: context, manager: manager).first { $0.finished }
    }
}

/// A tiny image format only `V5MagicCoder` knows: "V5IMG", width, height (one byte each), then RGBA pixels.
enum V5MagicFormat {
    static let magic = Data("V5IMG".utf8)

    static func encode(width: Int, height: Int, rgba: (UInt8, UInt8, UInt8, UInt8)) -> Data {
        var data = magic
        data.append(UInt8(width))
        data.append(UInt8(height))
        for _ in 0..<(width * height) { data.append(contentsOf: [rgba.0, rgba.1, rgba.2, rgba.3]) }
        return data
    }
}

/// A coder for `V5MagicFormat`, used as a context coder (V5-01).
final class V5MagicCoder: SDWebImageCoder {
    func canDecode(from data: Data?) -> Bool {
        data?.starts(with: V5MagicFormat.magic) ?? false
    }

    func decodeImage(from data: Data) throws -> UIImage {
        let bytes = [UInt8](data)
        guard canDecode(from: data), bytes.count >= 7 else { throw SDWebImageCoderError.noCoder(.undefined) }
        let width = Int(bytes[5])
        let height = Int(bytes[6])
        let pixels = Array(bytes[7...])
        guard pixels.count == width * height * 4 else {
            throw SDWebImageCoderError.corrupt(.undefined, reason: "pixel count")
        }
        return UIImage(pixelWidth: width, pixelHeight: height, pixels: pixels, hasAlpha: false)
    }

    func decompressedImage(with image: UIImage?, data: inout Data?, options: SDWebImageCoderOptions?) -> UIImage? {
        image
    }

    func canEncode(to format: SDImageFormat) -> Bool { false }
    func encodedData(with image: UIImage?, format: SDImageFormat) -> Data? { nil }
}
