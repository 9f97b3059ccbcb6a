import CJPEGShim
import CPNG
import Foundation

/// Decodes and encodes PNG with libpng, and decodes partial PNG data progressively (COD-02, COD-03, COD-06).
///
/// Replaces, for PNG, the ImageIO coder of 4.4.8 (`SDWebImageImageIOCoder.m`: `decodedImageWithData:`,
/// `incrementallyDecodedImageWithData:finished:`, `encodedDataWithImage:format:`); there is no ImageIO on Linux.
/// 5.x's default coders give all PNG data, still or animated, to `SDImageAPNGCoder`, which they ask before
/// `SDImageIOCoder` (that one also handles PNG, when used on its own); this port decodes only the first frame of an
/// APNG, as 4.4.8's ImageIO coder does on iOS, tvOS and watchOS.
///
/// - Whole files go through libpng's simplified API (`png_image_*`), which catches libpng's errors itself.
///   Every layout becomes 8-bit RGBA, straight alpha: palette, gray, 16-bit (scaled down; samples of files
///   without gAMA/sRGB are taken as sRGB, as browsers do) and Adam7-interlaced images.
/// - `hasAlpha` is true when the file has an alpha channel or a tRNS chunk (as Core Graphics' alpha info is).
/// - Partial data goes through libpng's progressive reader (`png_process_data`), driven from C
///   (`Sources/CJPEGShim/sdpng.c`) because libpng reports errors by longjmp. A coder made with `init()` keeps one
///   stream and feeds it only the bytes it has not seen; the stream and its byte count are guarded by `lock`.
/// - A PNG whose data ends early (no IEND) decodes to the rows that arrived, the rest transparent, through the
///   progressive reader; with no row of it, it is `SDWebImageCoderError.truncated` (COD-13, chapter 06).
/// - Headers claiming more than `SDWebImageCoderHelper.maxDecodedPixelCount` pixels are refused before any
///   allocation.
/// At tag 4.4.8: `SDWebImage/SDWebImageImageIOCoder.m:101` (`-decodedImageWithData:`), `SDWebImage/SDWebImageImageIOCoder.m:112` (`-incrementallyDecodedImageWithData:finished:`), `SDWebImage/SDWebImageImageIOCoder.m:389` (`-encodedDataWithImage:format:`).
/// At tag 5.21.5: `SDWebImage/Core/SDImageIOCoder.m:144` (`-decodedImageWithData:options:`), `SDWebImage/Core/SDImageAPNGCoder.m:17` (`SDImageAPNGCoder`).
public final class SDWebImagePNGCoder: SDWebImageProgressiveCoder, @unchecked Sendable {
    /// Ports `+sharedCoder`.
    public static let shared = SDWebImagePNGCoder()

    /// Guards `stream` and `bytesFed`, the progressive state of one download.
    private let lock = NSLock()
    private var stream: OpaquePointer?
    private var bytesFed = 0

    /// A PNG coder; it keeps no state.
    public init() {}

    deinit {
        if let stream { sdpng_stream_destroy(stream) }
    }

    // MARK: Decoding

    public func canDecode(from data: Data?) -> Bool {
        Data.sd_imageFormat(forImageData: data) == .png
    }

    public func decodeImage(from data: Data) throws -> UIImage {
        guard !data.isEmpty else { throw SDWebImageCoderError.emptyData }
        // libpng keeps a pointer to the png_image between calls: it needs a fixed address.
        let image = UnsafeMutablePointer<png_image>.allocate(capacity: 1)
        image.initialize(to: png_image())
        defer {
            png_image_free(image)
            image.deallocate()
        }
        image.pointee.version = UInt32(PNG_IMAGE_VERSION)
        // The simplified API reads from the memory between begin and finish: both stay inside this closure.
        return try data.withUnsafeBytes { raw -> UIImage in
            guard png_image_begin_read_from_memory(image, raw.baseAddress, raw.count) != 0 else {
                throw Self.failure(image, data: raw)
            }
            let width = Int(image.pointee.width)
            let height = Int(image.pointee.height)
            try SDWebImageCoderHelper.checkPixelBudget(width: width, height: height)
            let hasAlpha = image.pointee.format & UInt32(PNG_FORMAT_FLAG_ALPHA) != 0
            image.pointee.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
            image.pointee.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
            let rowBytes = width * 4
            var succeeded = false
            let pixels = SDWebImageCoderHelper.makePixels(count: rowBytes * height) { out in
                succeeded = png_image_finish_read(image, nil, out.baseAddress, Int32(rowBytes), nil) != 0
                if !succeeded { out.initialize(repeating: 0) }
            }
            guard succeeded else {
                let failure = Self.failure(image, data: raw)
                if failure == .truncated(.png), let partial = Self.decodeTruncated(raw) { return partial }
                throw failure
            }
            return UIImage(
                pixelWidth: width, pixelHeight: height, pixels: pixels, bytesPerRow: rowBytes,
                hasAlpha: hasAlpha, format: .png)
        }
    }

    /// A PNG whose data ends early, read by the progressive reader to where it ends: full size, the rows that
    /// arrived, the rest transparent (COD-13, chapter 06). nil when libpng refuses the data on the way, or when
    /// not one row of the final image (nor one Adam7 pass) arrived.
    private static func decodeTruncated(_ data: UnsafeRawBufferPointer) -> UIImage? {
        guard let base = data.baseAddress,
            let stream = sdpng_stream_create(UInt64(SDWebImageCoderHelper.maxDecodedPixelCount))
        else { return nil }
        defer { sdpng_stream_destroy(stream) }
        guard sdpng_stream_feed(stream, base.assumingMemoryBound(to: UInt8.self), data.count) == SDPNG_OK else {
            return nil
        }
        var info = sdpng_stream_info()
        sdpng_stream_get_info(stream, &info)
        guard info.header_ready != 0, info.rows_done > 0 || info.pass > 0 else { return nil }
        let width = Int(info.width)
        let height = Int(info.height)
        var copied = false
        let pixels = SDWebImageCoderHelper.makePixels(count: width * height * 4) { out in
            copied = sdpng_stream_copy_rgba(stream, out.baseAddress, width * 4, out.count) == SDPNG_OK
            if !copied { out.initialize(repeating: 0) }
        }
        guard copied else { return nil }
        let complete = info.rows_done == Int32(height)  // set in the last pass only, for Adam7
        return UIImage(
            pixelWidth: width, pixelHeight: height, pixels: pixels,
            hasAlpha: info.has_alpha != 0 || !complete, format: .png)
    }

    /// The error for a failed simplified-API call: `truncated` when the data has no IEND chunk (the file
    /// stops early), otherwise libpng's message.
    private static func failure(_ image: UnsafeMutablePointer<png_image>, data: UnsafeRawBufferPointer)
        -> SDWebImageCoderError
    {
        let message = withUnsafeBytes(of: image.pointee.message) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        let iend: [UInt8] = [0x49, 0x45, 0x4E, 0x44]  // "IEND"
        let hasEnd = data.count >= 12 && Array(data[(data.count - 8)..<(data.count - 4)]) == iend
        if !hasEnd && data.count > 8 && data.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            return .truncated(.png)
        }
        return .corrupt(.png, reason: message.isEmpty ? "libpng refused the data" : message)
    }

    // MARK: Progressive decoding

    public func canIncrementallyDecode(from data: Data?) -> Bool {
        canDecode(from: data)
    }

    /// Feeds the bytes not seen yet to libpng's progressive reader and returns the rows decoded so far (rows
    /// not arrived yet are transparent). With `finished`, decodes the whole data as `decodeImage` does and
    /// forgets the stream. nil when the header has not arrived or the data is not a PNG.
    public func incrementallyDecodedImage(with data: Data?, finished: Bool) -> UIImage? {
        guard let data else { return nil }
        if finished {
            lock.withLock { resetStream() }
            return try? decodeImage(from: data)
        }
        return lock.withLock { () -> UIImage? in
            if data.count < bytesFed { resetStream() }  // not the same download any more: start again
            if stream == nil {
                stream = sdpng_stream_create(UInt64(SDWebImageCoderHelper.maxDecodedPixelCount))
            }
            guard let stream else { return nil }
            if data.count > bytesFed {
                let status = data.withUnsafeBytes { raw in
                    sdpng_stream_feed(
                        stream, raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + bytesFed,
                        raw.count - bytesFed)
                }
                bytesFed = data.count
                if status != SDPNG_OK { return nil }
            }
            var info = sdpng_stream_info()
            sdpng_stream_get_info(stream, &info)
            guard info.header_ready != 0, info.rows_done > 0 || info.pass > 0 else { return nil }
            let width = Int(info.width)
            let height = Int(info.height)
            let pixels = SDWebImageCoderHelper.makePixels(count: width * height * 4) { out in
                _ = sdpng_stream_copy_rgba(stream, out.baseAddress, width * 4, out.count)
            }
            let complete = info.finished != 0
            return UIImage(
                pixelWidth: width, pixelHeight: height, pixels: pixels,
                hasAlpha: info.has_alpha != 0 || !complete, format: .png)
        }
    }

    /// Destroys the progressive stream. Call with `lock` held.
    private func resetStream() {
        if let stream { sdpng_stream_destroy(stream) }
        stream = nil
        bytesFed = 0
    }

    // MARK: Force decoding

    public func decompressedImage(with image: UIImage?, data: inout Data?, options: SDWebImageCoderOptions?) -> UIImage?
    {
        SDWebImageCoderHelper.decompressedImage(with: image, data: &data, options: options, encoder: self)
    }

    // MARK: Encoding

    public func canEncode(to format: SDImageFormat) -> Bool {
        format == .png
    }

    /// PNG through `png_image_write_to_memory`: RGBA when the image has alpha, RGB otherwise. Animated
    /// images are written as their first frame, as the ImageIO coder did.
    public func encodedData(with image: UIImage?, format: SDImageFormat) -> Data? {
        guard let image, format == .png else { return nil }
        return try? encode(image)
    }

    /// The PNG data, or an `encodeFailed` error saying why there is none.
    public func encode(_ image: UIImage) throws -> Data {
        let width = image.pixelWidth
        let height = image.pixelHeight
        guard width > 0, height > 0, image.pixels.count >= image.bytesPerRow * (height - 1) + width * 4 else {
            throw SDWebImageCoderError.encodeFailed(.png, reason: "the image has no pixels")
        }
        let channels = image.hasAlpha ? 4 : 3
        var rgb: [UInt8] = []
        if !image.hasAlpha {
            // The simplified writer has no "skip the filler byte" option: drop alpha here.
            rgb = SDWebImageCoderHelper.makePixels(count: width * height * 3) { out in
                image.pixels.withUnsafeBufferPointer { src in
                    var o = out.baseAddress!
                    for y in 0..<height {
                        var i = src.baseAddress! + y * image.bytesPerRow
                        let rowEnd = i + width * 4
                        while i < rowEnd {
                            o[0] = i[0]
                            o[1] = i[1]
                            o[2] = i[2]
                            o += 3
                            i += 4
                        }
                    }
                }
            }
        }
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        png.width = UInt32(width)
        png.height = UInt32(height)
        png.format = UInt32(image.hasAlpha ? (PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA) : PNG_FORMAT_FLAG_COLOR)
        let stride = image.hasAlpha ? image.bytesPerRow : width * 3
        // Room for incompressible data (zlib's bound, as PNG_IMAGE_PNG_SIZE_MAX computes it) plus the chunks.
        let raw = (width * channels + 1) * height
        var capacity = raw + (raw + 7) / 8 + (raw + 63) / 64 + 11 + 1024 + (raw / 8192 + 1) * 12
        for _ in 0..<2 {
            guard let memory = malloc(capacity) else {
                throw SDWebImageCoderError.encodeFailed(.png, reason: "out of memory")
            }
            var size = capacity
            let ok: Int32
            if image.hasAlpha {
                ok = image.pixels.withUnsafeBytes {
                    png_image_write_to_memory(&png, memory, &size, 0, $0.baseAddress, Int32(stride), nil)
                }
            } else {
                ok = rgb.withUnsafeBytes {
                    png_image_write_to_memory(&png, memory, &size, 0, $0.baseAddress, Int32(stride), nil)
                }
            }
            if ok != 0 {
                return Data(bytesNoCopy: realloc(memory, max(1, size)) ?? memory, count: size, deallocator: .free)
            }
            free(memory)
            guard size > capacity else {
                let message = withUnsafeBytes(of: png.message) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                throw SDWebImageCoderError.encodeFailed(.png, reason: message)
            }
            capacity = size  // the buffer was too small: libpng said how much it needs
        }
        throw SDWebImageCoderError.encodeFailed(.png, reason: "output buffer too small")
    }
}
