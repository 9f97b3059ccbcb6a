import Foundation

/// The registry of coders: asks each, last added first, whether it can handle the data or format (COD-01).
///
/// Ports `SDWebImageCodersManager` (`SDWebImageCodersManager.m`, 4.4.8). The original starts with the
/// ImageIO coder (plus WebP when compiled in); on Linux there is no ImageIO, so the default list is one coder
/// per library: PNG, JPEG, GIF, WebP. The list is guarded by `codersLock`, as the original guards it with a semaphore.
public final class SDWebImageCodersManager: SDWebImageCoder, @unchecked Sendable {
    /// The shared manager, used by the cache and the downloader.
    public static let shared = SDWebImageCodersManager()

    /// Guards `_coders`.
    private let codersLock = NSLock()
    private var _coders: [any SDWebImageCoder]

    /// A manager with the default coders.
    public convenience init() {
        self.init(coders: SDWebImageCodersManager.defaultCoders())
    }

    /// A manager with exactly these coders (the last one is asked first).
    public init(coders: [any SDWebImageCoder]) {
        _coders = coders
    }

    /// The default coders, the most specific last so that it is asked first.
    public static func defaultCoders() -> [any SDWebImageCoder] {
        []
    }

    /// The registered coders, in the order they were added.
    public var coders: [any SDWebImageCoder] {
        get { codersLock.withLock { _coders } }
        set { codersLock.withLock { _coders = newValue } }
    }

    /// Adds a coder; it is asked before every coder added earlier.
    public func addCoder(_ coder: any SDWebImageCoder) {
        codersLock.withLock { _coders.append(coder) }
    }

    /// Removes a coder (compared by identity).
    public func removeCoder(_ coder: any SDWebImageCoder) {
        codersLock.withLock { _coders.removeAll { $0 === coder } }
    }

    public func canDecode(from data: Data?) -> Bool {
        coders.reversed().contains { $0.canDecode(from: data) }
    }

    public func canEncode(to format: SDImageFormat) -> Bool {
        coders.reversed().contains { $0.canEncode(to: format) }
    }

    /// Decodes through the first able coder, or throws `noCoder` / `emptyData` / the coder's error.
    public func decodeImage(from data: Data) throws -> UIImage {
        guard !data.isEmpty else { throw SDWebImageCoderError.emptyData }
        guard let coder = coders.reversed().first(where: { $0.canDecode(from: data) }) else {
            throw SDWebImageCoderError.noCoder(Data.sd_imageFormat(forImageData: data))
        }
        return try coder.decodeImage(from: data)
    }

    public func decompressedImage(with image: UIImage?, data: inout Data?, options: SDWebImageCoderOptions?) -> UIImage? {
        guard let image else { return nil }
        for coder in coders.reversed() where coder.canDecode(from: data) {
            let decompressed = coder.decompressedImage(with: image, data: &data, options: options)
            decompressed?.sd_imageFormat = image.sd_imageFormat
            return decompressed
        }
        return nil
    }

    public func encodedData(with image: UIImage?, format: SDImageFormat) -> Data? {
        guard let image else { return nil }
        for coder in coders.reversed() where coder.canEncode(to: format) {
            return coder.encodedData(with: image, format: format)
        }
        return nil
    }
}
