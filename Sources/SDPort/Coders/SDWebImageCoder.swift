import Foundation

/// The key of the decompress options that asks for large images to be scaled down
/// (`SDWebImageCoderScaleDownLargeImagesKey` in `SDWebImageCoder.h`, 4.4.8).
/// At tag 4.4.8: `SDWebImage/SDWebImageCoder.m:11` (`SDWebImageCoderScaleDownLargeImagesKey`).
public let SDWebImageCoderScaleDownLargeImagesKey = "scaleDownLargeImages"

/// Decompress options: `[SDWebImageCoderScaleDownLargeImagesKey: true]` asks for scaling down.
public typealias SDWebImageCoderOptions = [String: Bool]

/// An image coder: decodes data of the formats it knows and encodes images to them.
///
/// Ports the `SDWebImageCoder` protocol from `SDWebImageCoder.h` (4.4.8). Its methods are called from many
/// threads at once, so a coder must be thread-safe; mostly off the main queue, though the header says always:
/// `imageFromDiskCacheForKey:`, a `QueryDiskSync` query and `sd_imageWithData:` decode on the caller's thread.
///
/// Beyond the original: `decodeImage(from:)` throws an error that says why the data did not decode
/// (`decodedImage(with:)` keeps the original's nil-on-failure contract on top of it).
/// At tag 4.4.8: `SDWebImage/SDWebImageCoder.h:39` (`SDWebImageCoder`), `SDWebImage/SDWebImageCoder.h:57` (`-decodedImageWithData:`).
public protocol SDWebImageCoder: AnyObject, Sendable {
    /// Whether this coder can decode `data` (normally: whether the sniffed format is one it knows).
    func canDecode(from data: Data?) -> Bool
    /// Decodes `data`, or throws an `SDWebImageCoderError` saying why it could not.
    func decodeImage(from data: Data) throws -> UIImage
    /// Force-decodes `image` (FAQ-13), scaling it down when the options ask for it (COD-05). May replace
    /// `data` when the pixels it describes changed. Returns the image itself when there is nothing to do.
    func decompressedImage(with image: UIImage?, data: inout Data?, options: SDWebImageCoderOptions?) -> UIImage?
    /// Whether this coder can encode to `format` (`.undefined` means "pick one").
    func canEncode(to format: SDImageFormat) -> Bool
    /// Encodes `image` as `format`, or nil when it cannot.
    func encodedData(with image: UIImage?, format: SDImageFormat) -> Data?
}

extension SDWebImageCoder {
    /// Ports `-decodedImageWithData:`: the decoded image, or nil for nil or undecodable data.
    public func decodedImage(with data: Data?) -> UIImage? {
        guard let data else { return nil }
        return try? decodeImage(from: data)
    }
}

/// A coder that can decode an image while its data is still arriving (COD-03).
///
/// Ports `SDWebImageProgressiveCoder` from `SDWebImageCoder.h` (4.4.8). For each progressive download the
/// downloader makes a fresh instance (`init()`) of the first registered progressive coder that accepts the data
/// (4.4.8: its default operation, with `ProgressiveDownload` and a known length), because the coder keeps the
/// state of one partial image.
/// At tag 4.4.8: `SDWebImage/SDWebImageCoder.h:98` (`SDWebImageProgressiveCoder`), `SDWebImage/SDWebImageCoder.h:117` (`-incrementallyDecodedImageWithData:finished:`).
public protocol SDWebImageProgressiveCoder: SDWebImageCoder {
    /// A fresh coder with no partial image: the downloader makes one per progressive download.
    init()
    /// Whether this coder can decode `data` incrementally.
    func canIncrementallyDecode(from data: Data?) -> Bool
    /// Decodes what has arrived so far: all the data received until now, not just the new bytes.
    /// Returns nil when not enough has arrived for a first image.
    func incrementallyDecodedImage(with data: Data?, finished: Bool) -> UIImage?
}
