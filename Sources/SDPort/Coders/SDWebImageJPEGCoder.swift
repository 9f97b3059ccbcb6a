import CJPEGShim
import CTurboJPEG
import Foundation

/// Decodes and encodes JPEG with libjpeg-turbo, and decodes partial JPEG data progressively (COD-02, COD-03,
/// COD-06).
///
/// Replaces, for JPEG, the ImageIO coder of 4.4.8 (`SDWebImageImageIOCoder.m`: `decodedImageWithData:`,
/// `incrementallyDecodedImageWithData:finished:`, `encodedDataWithImage:format:`); 5.x does the same work in
/// `SDImageIOCoder`. There is no ImageIO on Linux.
///
/// - Decoding: TurboJPEG's `tjDecompress2` straight into the image's RGBA buffer (the fast path). CMYK and
///   YCCK files, which TurboJPEG cannot convert to RGB, and files TurboJPEG only warns about, go through
///   libjpeg in the C shim (`Sources/CJPEGShim/sdjpeg.c`), where libjpeg's error handler is replaced by a
///   setjmp/longjmp pair that never crosses a Swift frame (the default one calls `exit()`).
/// - Truncated data: a JPEG whose data ends early ("Premature end of JPEG file") decodes as libjpeg finishes
///   it: full size, the rows that never arrived filled with libjpeg's flat grey (a progressive JPEG shows the
///   scans that arrived). ImageIO does the same, so the manager delivers and caches it (COD-13, chapter 06).
///   Data that ends before the first scan's header, or a baseline JPEG that ends before its first rows, is
///   `SDWebImageCoderError.truncated`: nothing of the picture arrived. Other libjpeg warnings (extraneous
///   bytes, a corrupt segment) are tolerated too, as browsers tolerate them.
/// - Progressive decoding (a coder made with `init()`): each call decodes all the data received so far with
///   libjpeg in tolerant mode: a baseline JPEG shows the rows that arrived (libjpeg fills the rest with a flat
///   colour), a progressive JPEG shows every scan that arrived, so more data gives a sharper image. The last
///   partial image and the byte count it came from are kept, under `lock`, so a call with no new data
///   returns it without decoding again.
/// - The pixels are the stored ones; `SDWebImageImageIOCoder`, which the coders manager holds, applies the EXIF
///   orientation on top (`SDImageEXIFOrientation`, COD-09).
/// - Headers claiming more than `SDWebImageCoderHelper.maxDecodedPixelCount` pixels are refused before any
///   allocation.
/// At tag 4.4.8: `SDWebImage/SDWebImageImageIOCoder.m:101` (`-decodedImageWithData:`), `SDWebImage/SDWebImageImageIOCoder.m:112` (`-incrementallyDecodedImageWithData:finished:`), `SDWebImage/SDWebImageImageIOCoder.m:389` (`-encodedDataWithImage:format:`).
/// At tag 5.21.5: `SDWebImage/Core/SDImageIOCoder.m:144` (`-decodedImageWithData:options:`).
public final class SDWebImageJPEGCoder: SDWebImageProgressiveCoder, @unchecked Sendable {
    /// Ports `+sharedCoder`.
    public static let shared = SDWebImageJPEGCoder()

    /// JPEG quality used by `encodedData(with:format:)`, 1...100.
    public let compressionQuality: Int

    /// Guards `lastPartialImage` and `lastPartialByteCount`, the progressive state of one download.
    private let lock = NSLock()
    private var lastPartialImage: UIImage?
    private var lastPartialByteCount = 0

    /// A JPEG coder with the default compression quality.
    public convenience init() {
        self.init(compressionQuality: 90)
    }

    /// A JPEG coder that encodes at `compressionQuality` (libjpeg's 0–100 scale).
    public init(compressionQuality: Int) {
        self.compressionQuality = max(1, min(100, compressionQuality))
    }

    // MARK: Decoding

    public func canDecode(from data: Data?) -> Bool {
        Data.sd_imageFormat(forImageData: data) == .jpeg
    }

    public func decodeImage(from data: Data) throws -> UIImage {
        guard !data.isEmpty else { throw SDWebImageCoderError.emptyData }
        return try data.withUnsafeBytes { raw in
            try Self.decodeWithTurboJPEG(raw.bindMemory(to: UInt8.self))
        }
    }

    /// The fast path; hands over to libjpeg for what TurboJPEG cannot do or only warns about.
    private static func decodeWithTurboJPEG(_ bytes: UnsafeBufferPointer<UInt8>) throws -> UIImage {
        guard let handle = tjInitDecompress() else {
            throw SDWebImageCoderError.corrupt(.jpeg, reason: "tjInitDecompress failed")
        }
        defer { tjDestroy(handle) }
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        guard
            tjDecompressHeader3(
                handle, bytes.baseAddress, UInt(bytes.count), &width, &height, &subsampling, &colorspace) == 0,
            width > 0, height > 0
        else {
            // TurboJPEG says little about bad headers (garbage after SOI even reads as 0×0): ask libjpeg.
            return try decodeWithLibjpeg(bytes)
        }
        if colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue) {
            return try decodeWithLibjpeg(bytes)
        }
        try SDWebImageCoderHelper.checkPixelBudget(width: Int(width), height: Int(height))
        let rowBytes = Int(width) * 4
        var status: Int32 = 0
        let pixels = SDWebImageCoderHelper.makePixels(count: rowBytes * Int(height)) { out in
            status = tjDecompress2(
                handle, bytes.baseAddress, UInt(bytes.count), out.baseAddress, width,
                Int32(rowBytes), height, Int32(TJPF_RGBA.rawValue), 0)
            if status != 0 { out.initialize(repeating: 0) }
        }
        guard status == 0 else {
            if tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) {
                // A warning (data ended early, or a corrupt segment): libjpeg says where the data ended.
                return try decodeWithLibjpeg(bytes)
            }
            throw SDWebImageCoderError.corrupt(.jpeg, reason: String(cString: tjGetErrorStr2(handle)))
        }
        return UIImage(
            pixelWidth: Int(width), pixelHeight: Int(height), pixels: pixels, bytesPerRow: rowBytes,
            hasAlpha: false, format: .jpeg)
    }

    /// Decodes with libjpeg through the C shim, finishing data that ends early (see the type's notes); a baseline
    /// JPEG that ended before its first rows is `truncated`, since the whole image would be filler.
    private static func decodeWithLibjpeg(_ bytes: UnsafeBufferPointer<UInt8>) throws -> UIImage {
        let result = try decodeWithLibjpegReportingEnd(bytes, allowTruncated: true)
        if !result.progressive, result.endOfDataRow == 0 { throw SDWebImageCoderError.truncated(.jpeg) }
        return result.image
    }

    /// Decodes with libjpeg through the C shim. With `allowTruncated`, data that ends early decodes to what
    /// arrived; `endOfDataRow` is the output row at which the data ended (nil when it did not).
    private static func decodeWithLibjpegReportingEnd(_ bytes: UnsafeBufferPointer<UInt8>, allowTruncated: Bool)
        throws -> (image: UIImage, endOfDataRow: Int?, progressive: Bool)
    {
        var info = sdjpeg_info()
        let headerStatus = sdjpeg_read_header(bytes.baseAddress, bytes.count, &info)
        guard headerStatus == SDJPEG_OK else { throw error(for: headerStatus, info: info) }
        let width = Int(info.width)
        let height = Int(info.height)
        guard width > 0, height > 0 else {
            throw SDWebImageCoderError.corrupt(.jpeg, reason: "the image has no pixels")
        }
        try SDWebImageCoderHelper.checkPixelBudget(width: width, height: height)
        let rowBytes = width * 4
        var status: Int32 = 0
        let pixels = SDWebImageCoderHelper.makePixels(count: rowBytes * height) { out in
            status = sdjpeg_decode_rgba(
                bytes.baseAddress, bytes.count, allowTruncated ? 1 : 0, out.baseAddress,
                rowBytes, out.count, &info)
            if status != SDJPEG_OK { out.initialize(repeating: 0) }
        }
        guard status == SDJPEG_OK else { throw error(for: status, info: info) }
        let image = UIImage(
            pixelWidth: width, pixelHeight: height, pixels: pixels, bytesPerRow: rowBytes,
            hasAlpha: false, format: .jpeg)
        return (image, info.hit_end_of_data != 0 ? Int(info.end_of_data_row) : nil, info.progressive != 0)
    }

    private static func error(for status: Int32, info: sdjpeg_info) -> SDWebImageCoderError {
        if status == SDJPEG_TRUNCATED { return .truncated(.jpeg) }
        let message = withUnsafeBytes(of: info.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return .corrupt(.jpeg, reason: message.isEmpty ? "libjpeg refused the data" : message)
    }

    // MARK: Progressive decoding

    public func canIncrementallyDecode(from data: Data?) -> Bool {
        canDecode(from: data)
    }

    /// Decodes the data received so far (see the type's notes). nil until the header and the first rows (or,
    /// for a progressive JPEG, the first scan) have arrived. With `finished`, decodes as `decodeImage(from:)`.
    public func incrementallyDecodedImage(with data: Data?, finished: Bool) -> UIImage? {
        guard let data, !data.isEmpty else { return nil }
        if finished {
            lock.withLock {
                lastPartialImage = nil
                lastPartialByteCount = 0
            }
            return try? decodeImage(from: data)
        }
        return lock.withLock { () -> UIImage? in
            if data.count == lastPartialByteCount, let lastPartialImage { return lastPartialImage }
            let result = data.withUnsafeBytes { raw in
                try? Self.decodeWithLibjpegReportingEnd(raw.bindMemory(to: UInt8.self), allowTruncated: true)
            }
            guard let result else { return nil }
            // A baseline JPEG whose data ended before the first row is all filler: nothing to show yet.
            if !result.progressive, result.endOfDataRow == 0 { return nil }
            lastPartialImage = result.image
            lastPartialByteCount = data.count
            return result.image
        }
    }

    // MARK: Force decoding

    public func decompressedImage(with image: UIImage?, data: inout Data?, options: SDWebImageCoderOptions?) -> UIImage?
    {
        SDWebImageCoderHelper.decompressedImage(with: image, data: &data, options: options, encoder: self)
    }

    // MARK: Encoding

    public func canEncode(to format: SDImageFormat) -> Bool {
        format == .jpeg
    }

    /// Baseline JPEG (4:2:0) at `compressionQuality` through TurboJPEG's `tjCompress2`; alpha is dropped.
    /// Animated images are written as their first frame, as the ImageIO coder did.
    public func encodedData(with image: UIImage?, format: SDImageFormat) -> Data? {
        guard let image, format == .jpeg else { return nil }
        return try? encode(image, quality: compressionQuality)
    }

    /// The JPEG data at `quality` (1...100), or an `encodeFailed` error saying why there is none.
    public func encode(_ image: UIImage, quality: Int) throws -> Data {
        let width = image.pixelWidth
        let height = image.pixelHeight
        guard width > 0, height > 0, image.pixels.count >= image.bytesPerRow * (height - 1) + width * 4 else {
            throw SDWebImageCoderError.encodeFailed(.jpeg, reason: "the image has no pixels")
        }
        guard let handle = tjInitCompress() else {
            throw SDWebImageCoderError.encodeFailed(.jpeg, reason: "tjInitCompress failed")
        }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = image.pixels.withUnsafeBufferPointer { src in
            tjCompress2(
                handle, src.baseAddress, Int32(width), Int32(image.bytesPerRow), Int32(height),
                Int32(TJPF_RGBA.rawValue), &output, &size, Int32(TJSAMP_420.rawValue),
                Int32(max(1, min(100, quality))), 0)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else {
            throw SDWebImageCoderError.encodeFailed(.jpeg, reason: String(cString: tjGetErrorStr2(handle)))
        }
        return Data(bytes: output, count: Int(size))
    }
}
