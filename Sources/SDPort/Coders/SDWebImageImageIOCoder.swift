import Foundation

/// The default coder of 4.4.8, on the C libraries: JPEG (libjpeg-turbo), PNG (libpng) and a GIF's first frame,
/// still (giflib), decoded in full or incrementally; JPEG, PNG and still GIF encoded (COD-01, COD-10).
///
/// Ports `SDWebImageImageIOCoder` (`SDWebImageImageIOCoder.m`, 4.4.8): `canDecodeFromData:`,
/// `decodedImageWithData:`, `canIncrementallyDecodeFromData:`, `incrementallyDecodedImageWithData:finished:`,
/// `decompressedImageWithImage:data:options:`, `canEncodeToFormat:`, `encodedDataWithImage:format:`. ImageIO
/// reads every format the system knows; the port reads those it has a library for and hands each to the
/// format's own code (`SDWebImageJPEGCoder`, `SDWebImagePNGCoder`, `SDWebImageGIFCoder.decodeFirstFrame`).
///
/// As ImageIO does:
/// - WebP is not this coder's (the WebP coder answers it); a GIF gives its first frame as a still image (4.4.8 on
///   iOS, tvOS and watchOS; on macOS NSImage keeps the frames), which the manager's delegate transforms and the
///   caches keep as one frame like any still image; read back from disk it is force-decoded (4.4.8: on iOS, tvOS
///   and watchOS; the downloader skips GIFs by format, as 4.4.8's operation does). Animation needs
///   `SDWebImageGIFCoder`, added by the program.
/// - A JPEG's EXIF orientation is applied, in full and incremental decodes (COD-09). UIKit keeps the stored
///   pixels and an `imageOrientation`; the stand-in `UIImage` has no orientation, so the port turns the pixels
///   upright instead (`SDImageEXIFOrientation`). Encoding then writes those upright pixels, so an encoded image
///   looks as the decoded one did (ImageIO writes the orientation tag beside unturned pixels: same picture).
/// - Incremental decoding for every format it reads, GIF included (the first frame's rows that arrived).
/// - Encoding to `.undefined` picks PNG for an image with alpha and JPEG otherwise.
///
/// Which data it claims follows 4.4.8 (`SDWebImageImageIOCoder.m:69-99,373-387`): every format but WebP, HEIC and
/// HEIF, unknown bytes included (`default: YES`), for decoding, incremental decoding and encoding. HEIC and HEIF
/// are refused as 4.4.8 refuses them on a system whose ImageIO cannot read (or, to encode, write) them.
///
/// Where Linux differs: TIFF (and BMP, ICO, anything unknown) have no library here, so decoding them fails with
/// `SDWebImageCoderError.noCoder` and encoding to TIFF gives nil, where ImageIO would read and write TIFF. For a
/// download the outcome is the same as 4.4.8's for bytes ImageIO cannot read: "Downloaded image has 0 pixels".
/// 5.x splits this class into `SDImageIOCoder` (stills) and `SDImageGIFCoder`/`SDImageAPNGCoder` (animation).
///
/// Thread safety: the shared instance has no state. An instance made with `init()` for one download keeps that
/// download's incremental state (the format's coder and the orientation) under `lock`.
/// At tag 4.4.8: `SDWebImage/SDWebImageImageIOCoder.m:101` (`-decodedImageWithData:`), `SDWebImage/SDWebImageImageIOCoder.m:112` (`-incrementallyDecodedImageWithData:finished:`).
/// At tag 5.21.5: `SDWebImage/Core/SDImageIOCoder.m:144` (`-decodedImageWithData:options:`).
public final class SDWebImageImageIOCoder: SDWebImageProgressiveCoder, @unchecked Sendable {
    /// Ports `+sharedCoder`.
    public static let shared = SDWebImageImageIOCoder()

    /// The formats the port's libraries read for this coder.
    public static let decodableFormats: Set<SDImageFormat> = [.jpeg, .png, .gif]
    /// The formats it writes (`.undefined` means "PNG or JPEG").
    public static let encodableFormats: Set<SDImageFormat> = [.jpeg, .png, .gif, .undefined]
    /// The formats it never claims (4.4.8 refuses WebP, left to the WebP coder of an `SD_WEBP` build, and HEIC and
    /// HEIF where ImageIO cannot read them, or to encode, write them).
    public static let refusedFormats: Set<SDImageFormat> = [.webp, .heic, .heif]

    /// Guards the incremental state of one download.
    private let lock = NSLock()
    private var incrementalFormat: SDImageFormat?
    private var incrementalCoder: (any SDWebImageProgressiveCoder)?
    private var incrementalOrientation: SDImageEXIFOrientation?

    /// A new coder; the downloader makes one per progressive download, for that download's partial image.
    public init() {}

    // MARK: Decoding

    /// Every format but WebP, HEIC and HEIF, unknown bytes included (`canDecodeFromData:`'s `default: YES`).
    public func canDecode(from data: Data?) -> Bool {
        !Self.refusedFormats.contains(Data.sd_imageFormat(forImageData: data))
    }

    /// Decodes a JPEG (orientation applied), a PNG, or a GIF's first frame.
    public func decodeImage(from data: Data) throws -> UIImage {
        guard !data.isEmpty else { throw SDWebImageCoderError.emptyData }
        let format = Data.sd_imageFormat(forImageData: data)
        let image: UIImage
        switch format {
        case .jpeg:
            image = SDImageEXIFOrientation.of(jpegData: data).applied(
                to: try SDWebImageJPEGCoder.shared.decodeImage(from: data))
        case .png:
            image = try SDWebImagePNGCoder.shared.decodeImage(from: data)
        case .gif:
            image = try SDWebImageGIFCoder.shared.decodeFirstFrame(from: data)
        default:
            throw SDWebImageCoderError.noCoder(format)
        }
        image.sd_imageFormat = format
        return image
    }

    // MARK: Incremental decoding

    public func canIncrementallyDecode(from data: Data?) -> Bool {
        canDecode(from: data)
    }

    /// Decodes all the data received so far. nil until there is something to show.
    public func incrementallyDecodedImage(with data: Data?, finished: Bool) -> UIImage? {
        guard let data, !data.isEmpty else { return nil }
        let format = Data.sd_imageFormat(forImageData: data)
        guard Self.decodableFormats.contains(format) else { return nil }
        let decoded: UIImage? = lock.withLock {
            if incrementalFormat != format {
                incrementalFormat = format
                incrementalOrientation = nil
                switch format {
                case .jpeg: incrementalCoder = SDWebImageJPEGCoder()
                case .png: incrementalCoder = SDWebImagePNGCoder()
                default: incrementalCoder = nil  // GIF: its first frame is decoded again from all the data
                }
            }
            guard
                let partial = incrementalCoder.map({ $0.incrementallyDecodedImage(with: data, finished: finished) })
                    ?? (try? SDWebImageGIFCoder.shared.decodeFirstFrame(from: data, keepingPartialRows: !finished))
            else {
                return nil
            }
            guard format == .jpeg else { return partial }
            // As ImageIO, the orientation is read once, from the first data that gives an image (the EXIF
            // segment comes before the pixels).
            let orientation = incrementalOrientation ?? SDImageEXIFOrientation.of(jpegData: data)
            incrementalOrientation = orientation
            return orientation.applied(to: partial)
        }
        decoded?.sd_imageFormat = format
        if finished {
            lock.withLock {
                incrementalFormat = nil
                incrementalCoder = nil
                incrementalOrientation = nil
            }
        }
        return decoded
    }

    // MARK: Force decoding

    /// Force-decodes (FAQ-13) any still image, a GIF's first frame included; animated images are left alone.
    public func decompressedImage(with image: UIImage?, data: inout Data?, options: SDWebImageCoderOptions?) -> UIImage?
    {
        SDWebImageCoderHelper.decompressedImage(with: image, data: &data, options: options, encoder: self)
    }

    // MARK: Encoding

    /// Every format but WebP, HEIC and HEIF (`canEncodeToFormat:`); only JPEG, PNG, GIF and `.undefined` give data.
    public func canEncode(to format: SDImageFormat) -> Bool {
        !Self.refusedFormats.contains(format)
    }

    /// JPEG, PNG, or a still GIF of the image's first frame (ImageIO writes one image); `.undefined` is PNG for an
    /// image with alpha, JPEG otherwise.
    public func encodedData(with image: UIImage?, format: SDImageFormat) -> Data? {
        guard let image, Self.encodableFormats.contains(format) else { return nil }
        let target = format == .undefined ? (image.hasAlpha ? SDImageFormat.png : .jpeg) : format
        let still = image.images?.first ?? image
        switch target {
        case .jpeg: return SDWebImageJPEGCoder.shared.encodedData(with: still, format: .jpeg)
        case .png: return SDWebImagePNGCoder.shared.encodedData(with: still, format: .png)
        case .gif: return SDWebImageGIFCoder.shared.encodedData(with: still, format: .gif)
        default: return nil
        }
    }
}
