import Foundation

/// The registry of coders: asks each, last added first, whether it can handle the data or format (COD-01).
///
/// Ports `SDWebImageCodersManager` (`SDWebImageCodersManager.m`, 4.4.8; 5.x renames it `SDImageCodersManager`).
/// The default list is 4.4.8's: `SDWebImageImageIOCoder` (here JPEG, PNG and a GIF's first frame as a still image;
/// in 4.4.8 whatever ImageIO reads, WebP excepted and HEIC and HEIF only where the system decodes them),
/// then `SDWebImageWebPCoder` (4.4.8 appends it when compiled with `SD_WEBP`, as the port always is); the last
/// added is asked first. `SDWebImageGIFCoder` animates GIFs only when a program adds it. TIFF, HEIC and HEIF are
/// sniffed but have no library here: decoding them throws `SDWebImageCoderError.noCoder`.
///
/// Force-decoding an image whose data no coder claims (nil data, an unknown format) goes through
/// `SDWebImageCoderHelper`, as the ImageIO coder would for any data; encoding to `.undefined` picks PNG for an
/// image with alpha and JPEG otherwise, whichever coder is asked.
/// The list is guarded by `codersLock` on every access. 4.4.8's semaphore guards `addCoder:`, `removeCoder:` and the
/// manager's own reads, not the `coders` property (a synthesized nonatomic one, so setting it races with them); 5.x
/// locks that property too. A deliberate difference (chapter 08): Swift 6 admits no data race.
/// At tag 4.4.8: `SDWebImage/SDWebImageCodersManager.m:37` (`-init`), `SDWebImage/SDWebImageCodersManager.m:102` (`-decodedImageWithData:`).
/// At tag 5.21.5: `SDWebImage/Core/SDImageCodersManager.m:35` (`-init`).
public final class SDWebImageCodersManager: SDWebImageCoder, @unchecked Sendable {
    /// The shared manager, used by the cache and the downloader (`+sharedInstance`).
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

    /// The default coders, as 4.4.8's `-init` built with `SD_WEBP`: the ImageIO coder, then the WebP coder (asked
    /// first). Without `SD_WEBP` (the default Core subspec) 4.4.8's list is the ImageIO coder alone.
    public static func defaultCoders() -> [any SDWebImageCoder] {
        [SDWebImageImageIOCoder.shared, SDWebImageWebPCoder.shared]
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

    /// The coder `decodeImage(from:)` would use for `data`: the last added one that can decode it (port addition,
    /// so tools can say which coder decoded an image).
    public func coder(forDecoding data: Data?) -> (any SDWebImageCoder)? {
        coders.reversed().first { $0.canDecode(from: data) }
    }

    public func canDecode(from data: Data?) -> Bool {
        coders.reversed().contains { $0.canDecode(from: data) }
    }

    public func canEncode(to format: SDImageFormat) -> Bool {
        coders.reversed().contains { $0.canEncode(to: format) }
    }

    /// Decodes through the first able coder, or throws `noCoder` / `emptyData` / the coder's error.
    public func decodeImage(from data: Data) throws -> UIImage {
        try decodeImage(from: data, traceKey: nil)
    }

    /// `decodeImage(from:)` that reports the decode step (`SDWebImageFlowStep.decode`) under `traceKey`
    /// (the URL or cache key the data belongs to). With a nil key nothing is reported: the caller (the download
    /// operation) reports the step itself once the image is ready, so a cold load shows step 7 once.
    public func decodeImage(from data: Data, traceKey: String?) throws -> UIImage {
        do {
            guard !data.isEmpty else { throw SDWebImageCoderError.emptyData }
            guard let coder = coders.reversed().first(where: { $0.canDecode(from: data) }) else {
                throw SDWebImageCoderError.noCoder(Data.sd_imageFormat(forImageData: data))
            }
            let image = try coder.decodeImage(from: data)
            if let traceKey { SDWebImageTrace.record(.decode, key: traceKey, Self.describe(image)) }
            return image
        } catch {
            if let traceKey { SDWebImageTrace.record(.decode, key: traceKey, "failed: \(error.localizedDescription)") }
            throw error
        }
    }

    /// Force-decodes (and with the option scales down) through the first coder that can decode `data`, asking the
    /// last added first; nil when none can, as 4.4.8 answers (`SDWebImageCodersManager.m:123-130`). With the
    /// default coders that never happens: the ImageIO coder claims every format but WebP and an undecodable HEIC or
    /// HEIF, nil data included.
    public func decompressedImage(with image: UIImage?, data: inout Data?, options: SDWebImageCoderOptions?) -> UIImage?
    {
        guard let image else { return nil }
        guard let coder = coders.reversed().first(where: { $0.canDecode(from: data) }) else { return nil }
        let decompressed = coder.decompressedImage(with: image, data: &data, options: options)
        decompressed?.sd_imageFormat = image.sd_imageFormat
        return decompressed
    }

    /// `ScaleDownLargeImages` without the full-size bitmap: when the coder that would decode `data` is the port's
    /// own JPEG decoding (the ImageIO or the JPEG coder) and the image is over the 60 MB limit, decodes it
    /// straight to the scaled-down size (`SDWebImageJPEGCoder.decodeScaledDown`). nil when that does not apply;
    /// the caller then decodes and scales as before. A caller that stores the data re-encodes it from the result,
    /// as `decompressedImage(with:data:options:)` does after scaling; the cache's disk query, which throws the
    /// data away, does not.
    public func decodedAndScaledDownImage(from data: Data) -> UIImage? {
        guard let coder = coders.reversed().first(where: { $0.canDecode(from: data) }),
            coder is SDWebImageImageIOCoder || coder is SDWebImageJPEGCoder,
            let image = try? SDWebImageJPEGCoder.decodeScaledDown(from: data)
        else { return nil }
        image.sd_imageFormat = .jpeg
        return image
    }

    /// Encodes through the first coder that can encode `format`. `.undefined` means PNG for an image with
    /// alpha and JPEG otherwise (the ImageIO coder's rule).
    public func encodedData(with image: UIImage?, format: SDImageFormat) -> Data? {
        guard let image else { return nil }
        let target = format == .undefined ? (image.hasAlpha ? SDImageFormat.png : .jpeg) : format
        for coder in coders.reversed() where coder.canEncode(to: target) {
            return coder.encodedData(with: image, format: target)
        }
        return nil
    }

    private static func describe(_ image: UIImage) -> String {
        let frames = SDWebImageCoderHelper.frames(from: image)?.count ?? 1
        return "\(image.sd_imageFormat.fileExtension ?? "image") \(image.pixelWidth)×\(image.pixelHeight), "
            + (frames == 1 ? "1 frame" : "\(frames) frames")
    }
}
