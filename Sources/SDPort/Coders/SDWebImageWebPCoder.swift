import CWebP
import Foundation

/// Decodes still and animated WebP, decodes partial still WebP progressively, and encodes lossy, lossless and
/// animated WebP with libwebp (COD-02, COD-03, COD-06).
///
/// Ports `SDWebImageWebPCoder` (`SDWebImageWebPCoder.m`, 4.4.8, compiled in with `SD_WEBP`:
/// `decodedImageWithData:`, `canIncrementallyDecodeFromData:`, `incrementallyDecodedImageWithData:finished:`,
/// `encodedDataWithImage:format:`, `decompressedImageWithImage:data:options:`).
/// 5.x moved the libwebp coder out of the core into the SDWebImageWebPCoder plugin (`SDImageWebPCoder`); the core
/// keeps only `SDImageAWebPCoder` (5.9.0 on, not a default coder), which decodes through the system's ImageIO on
/// iOS 14, macOS 11 and later. 4.4.8 encodes lossy only; the port adds lossless encoding as
/// `encode(_:lossless:quality:)`.
///
/// - Still images: `WebPDecodeRGBAInto` straight into the image's buffer; `hasAlpha` from the bitstream's
///   alpha flag.
/// - Animated images: `WebPDemux` reads the canvas size, frame count and loop count first (so a
///   huge canvas, or more frames of it than `SDWebImageCoderHelper.maxDecodedPixelCount` allows, is refused as
///   `animationTooLarge` before `WebPAnimDecoder` allocates anything; REL-01), then `WebPAnimDecoder` composites every
///   frame. Frame durations of 10 ms or less become 100 ms, as the original and browsers do. A file with the
///   animation flag and one frame gives an animated image of one entry, as 4.4.8 does on iOS, tvOS and watchOS. A
///   frame has alpha when one of its composited pixels is not opaque.
/// - `encodedData(with:format:)` encodes lossy at quality 100, as 4.4.8 does; animated images go through
///   `WebPAnimEncoder` (4.4.8 muxes separately encoded frames with `WebPMux`), with the image's loop count.
///   Lossless encoding sets `config.exact`, so even the colour under fully transparent pixels survives a
///   round trip.
/// - Partial data (a progressive download) goes through libwebp's incremental decoder, as in the original:
///   `WebPINewRGB(MODE_rgbA)` once, then `WebPIUpdate` with all the data so far and `WebPIDecGetRGB`. An image
///   comes back once at least one row is decoded (`last_y > 0`): the full size, the decoded rows on top, the rest
///   transparent. libwebp writes premultiplied RGBA there; the rows are un-premultiplied into straight alpha.
///   A coder made with `init()` keeps one incremental decoder, guarded by `lock`, and frees it in `deinit` and
///   when `finished` comes. Animated WebP has no incremental decoder (libwebp refuses it): no partial image,
///   not even from the finished call (OP-10).
/// - `decompressedImage` force-decodes (and scales down) through `SDWebImageCoderHelper` and re-encodes
///   `data` as WebP when the image was scaled down, as the original does.
/// At tag 4.4.8: `SDWebImage/SDWebImageWebPCoder.m:59` (`-decodedImageWithData:`), `SDWebImage/SDWebImageWebPCoder.m:149` (`-incrementallyDecodedImageWithData:finished:`), `SDWebImage/SDWebImageWebPCoder.m:374` (`-encodedDataWithImage:format:`).
public final class SDWebImageWebPCoder: SDWebImageProgressiveCoder, @unchecked Sendable {
    /// Ports `+sharedCoder`.
    public static let shared = SDWebImageWebPCoder()

    /// Guards `incremental`, the progressive state of one download (the original's `_idec`).
    private let lock = NSLock()
    private var incremental: IncrementalState?

    /// Whole-data decoding and encoding keep no state, so one instance serves every thread; the downloader makes
    /// a fresh instance for each progressive download.
    public init() {}

    deinit {
        incremental?.free()
    }

    // MARK: Decoding

    public func canDecode(from data: Data?) -> Bool {
        Data.sd_imageFormat(forImageData: data) == .webp
    }

    public func decodeImage(from data: Data) throws -> UIImage {
        guard !data.isEmpty else { throw SDWebImageCoderError.emptyData }
        return try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var features = WebPBitstreamFeatures()
            let status = WebPGetFeatures(bytes.baseAddress, bytes.count, &features)
            guard status == VP8_STATUS_OK else { throw Self.error(for: status) }
            if features.has_animation != 0 {
                return try Self.decodeAnimated(bytes)
            }
            return try Self.decodeStill(bytes, features: features)
        }
    }

    private static func decodeStill(_ bytes: UnsafeBufferPointer<UInt8>, features: WebPBitstreamFeatures) throws
        -> UIImage
    {
        let width = Int(features.width)
        let height = Int(features.height)
        guard width > 0, height > 0 else {
            throw SDWebImageCoderError.corrupt(.webp, reason: "the image has no pixels")
        }
        try SDWebImageCoderHelper.checkPixelBudget(width: width, height: height)
        let rowBytes = width * 4
        var decoded = false
        let pixels = SDWebImageCoderHelper.makePixels(count: rowBytes * height) { out in
            decoded =
                WebPDecodeRGBAInto(bytes.baseAddress, bytes.count, out.baseAddress, out.count, Int32(rowBytes)) != nil
            if !decoded { out.initialize(repeating: 0) }
        }
        guard decoded else {
            // The header was fine, so the bitstream is cut short or damaged: WebPDecode says which.
            var config = WebPDecoderConfig()
            _ = WebPInitDecoderConfig(&config)
            let status = WebPDecode(bytes.baseAddress, bytes.count, &config)
            WebPFreeDecBuffer(&config.output)
            throw error(for: status == VP8_STATUS_OK ? VP8_STATUS_BITSTREAM_ERROR : status)
        }
        return UIImage(
            pixelWidth: width, pixelHeight: height, pixels: pixels, bytesPerRow: rowBytes,
            hasAlpha: features.has_alpha != 0, format: .webp)
    }

    private static func decodeAnimated(_ bytes: UnsafeBufferPointer<UInt8>) throws -> UIImage {
        var webpData = WebPData(bytes: bytes.baseAddress, size: bytes.count)
        guard let demux = WebPDemux(&webpData) else {
            throw SDWebImageCoderError.corrupt(.webp, reason: "the animation's chunks are incomplete or invalid")
        }
        let width = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH))
        let height = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT))
        let frameCount = Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT))
        let loopCount = Int(WebPDemuxGetI(demux, WEBP_FF_LOOP_COUNT))
        WebPDemuxDelete(demux)
        guard width > 0, height > 0, frameCount > 0 else {
            throw SDWebImageCoderError.corrupt(.webp, reason: "the animation has no frames")
        }
        // The decoder allocates the canvas and each frame is a full canvas: check them all first.
        try SDWebImageCoderHelper.checkPixelBudget(width: width, height: height, frames: frameCount, workingCanvases: 1)

        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else {
            throw SDWebImageCoderError.corrupt(.webp, reason: "libwebp version mismatch")
        }
        options.color_mode = MODE_RGBA
        options.use_threads = 0
        guard let decoder = WebPAnimDecoderNew(&webpData, &options) else {
            throw SDWebImageCoderError.corrupt(.webp, reason: "WebPAnimDecoderNew refused the data")
        }
        defer { WebPAnimDecoderDelete(decoder) }
        var frames: [SDWebImageFrame] = []
        var previousTimestamp: Int32 = 0
        let rowBytes = width * 4
        while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
            var canvas: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
                if frames.isEmpty { throw SDWebImageCoderError.truncated(.webp) }
                break  // keep the frames that decoded
            }
            let pixels = Array(UnsafeBufferPointer(start: canvas, count: rowBytes * height))
            // Encoders do not always set the container's alpha flag (Pillow's does not): look at the pixels.
            let frameHasAlpha = SDWebImageCoderHelper.containsTransparency(pixels)
            let image = UIImage(
                pixelWidth: width, pixelHeight: height, pixels: pixels, bytesPerRow: rowBytes,
                hasAlpha: frameHasAlpha, format: .webp)
            // Timestamps are the frames' end times in milliseconds.
            let milliseconds = Int(timestamp - previousTimestamp)
            previousTimestamp = timestamp
            frames.append(
                SDWebImageFrame(image: image, duration: milliseconds <= 10 ? 0.1 : Double(milliseconds) / 1000))
        }
        guard !frames.isEmpty else { throw SDWebImageCoderError.corrupt(.webp, reason: "no frame decoded") }
        // A file with the animation flag is animated even with one frame (`images.count == 1`), as 4.4.8 builds it
        // on iOS, tvOS and watchOS (`SDWebImageWebPCoder.m:77-146`; its macOS build makes a one-frame GIF rep).
        try SDWebImageCoderHelper.checkAnimationEntries(frames)
        return SDWebImageCoderHelper.animatedImage(with: frames, loopCount: loopCount, format: .webp)!
    }

    private static func error(for status: VP8StatusCode) -> SDWebImageCoderError {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA: return .truncated(.webp)
        case VP8_STATUS_OUT_OF_MEMORY: return .corrupt(.webp, reason: "out of memory")
        case VP8_STATUS_INVALID_PARAM: return .corrupt(.webp, reason: "invalid parameter")
        case VP8_STATUS_UNSUPPORTED_FEATURE: return .corrupt(.webp, reason: "unsupported feature")
        default: return .corrupt(.webp, reason: "bitstream error")
        }
    }

    // MARK: Progressive decoding

    /// Ports `-canIncrementallyDecodeFromData:`: any WebP data.
    public func canIncrementallyDecode(from data: Data?) -> Bool {
        canDecode(from: data)
    }

    /// Ports `-incrementallyDecodedImageWithData:finished:`: the rows libwebp has decoded from `data` (all the data
    /// received so far), on a transparent canvas of the full size; nil until a first row is decoded, or when the
    /// data is not a still WebP. With `finished`, the incremental decoder is freed and a still WebP is decoded as
    /// `decodeImage(from:)` does (nil when that fails), as this port's JPEG and PNG coders do; 4.4.8 returns the
    /// incremental decoder's picture there. An animated WebP gives nil on every call, the finished one too: the
    /// incremental decoder refuses animations, so a progressive download of one gets no partial image (OP-10).
    /// Either way the downloader decodes the final image from all the data.
    public func incrementallyDecodedImage(with data: Data?, finished: Bool) -> UIImage? {
        guard let data else { return nil }
        if finished {
            lock.withLock { resetIncremental() }
            guard !Self.isAnimated(data) else { return nil }
            return try? decodeImage(from: data)
        }
        return lock.withLock { () -> UIImage? in
            // Less data than last time: not the same download any more, start again.
            if let state = incremental, data.count < state.bytesSeen { resetIncremental() }
            if incremental == nil {
                guard let state = IncrementalState.start(with: data) else { return nil }
                incremental = state
            }
            return incremental?.update(with: data)
        }
    }

    /// Whether the header says the data is an animated WebP (false when it has not arrived or is not WebP).
    private static func isAnimated(_ data: Data) -> Bool {
        var features = WebPBitstreamFeatures()
        let status = data.withUnsafeBytes { raw in
            WebPGetFeatures(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &features)
        }
        return status == VP8_STATUS_OK && features.has_animation != 0
    }

    /// Frees the incremental decoder. Call with `lock` held.
    private func resetIncremental() {
        incremental?.free()
        incremental = nil
    }

    /// One download's incremental decoder and what the header said.
    private struct IncrementalState {
        let decoder: OpaquePointer  // WebPIDecoder*
        let hasAlpha: Bool
        var bytesSeen = 0

        /// A decoder for `data`, once its header has arrived and says the image is a still one within the pixel
        /// budget; nil otherwise (wait for more data, or give up on this download's partial images).
        static func start(with data: Data) -> IncrementalState? {
            var features = WebPBitstreamFeatures()
            let status = data.withUnsafeBytes { raw in
                WebPGetFeatures(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &features)
            }
            guard status == VP8_STATUS_OK, features.has_animation == 0, features.width > 0, features.height > 0,
                (try? SDWebImageCoderHelper.checkPixelBudget(width: Int(features.width), height: Int(features.height)))
                    != nil
            else { return nil }
            // Premultiplied output, as the original asks for: the rows not decoded yet stay transparent black.
            guard let decoder = WebPINewRGB(MODE_rgbA, nil, 0, 0) else { return nil }
            return IncrementalState(decoder: decoder, hasAlpha: features.has_alpha != 0)
        }

        func free() {
            WebPIDelete(decoder)
        }

        /// Hands libwebp all the data so far (it reads only the bytes it has not seen: `WebPIUpdate` maps the
        /// caller's buffer, which may have moved since the last call) and copies out the rows decoded so far.
        mutating func update(with data: Data) -> UIImage? {
            bytesSeen = data.count
            let status = data.withUnsafeBytes { raw in
                WebPIUpdate(decoder, raw.bindMemory(to: UInt8.self).baseAddress, raw.count)
            }
            guard status == VP8_STATUS_OK || status == VP8_STATUS_SUSPENDED else { return nil }
            var lastY: Int32 = 0
            var width: Int32 = 0
            var height: Int32 = 0
            var stride: Int32 = 0
            guard let rgba = WebPIDecGetRGB(decoder, &lastY, &width, &height, &stride),
                width > 0, height > 0, lastY > 0, lastY <= height, stride >= width * 4
            else { return nil }
            let w = Int(width)
            let h = Int(height)
            let rows = Int(lastY)
            let rowBytes = w * 4
            let pixels = SDWebImageCoderHelper.makePixels(count: rowBytes * h) { out in
                // Only the first `lastY` rows are final (the original draws just those, see its comment on
                // libwebp bug #362); the rest of the canvas is transparent.
                out.initialize(repeating: 0)
                for y in 0..<rows {
                    Self.unpremultiply(rgba + y * Int(stride), into: out.baseAddress! + y * rowBytes, count: w)
                }
            }
            let complete = status == VP8_STATUS_OK && rows == h
            return UIImage(
                pixelWidth: w, pixelHeight: h, pixels: pixels, bytesPerRow: rowBytes,
                hasAlpha: hasAlpha || !complete, format: .webp)
        }

        /// Premultiplied rgbA to straight RGBA. libwebp premultiplies by truncating (p = ⌊c·a / 255⌋), so each p
        /// stands for the colours from p·255/a up to (p + 1)·255/a: take the middle, which halves the worst error.
        private static func unpremultiply(
            _ source: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, count: Int
        ) {
            for x in 0..<count {
                let p = x * 4
                let a = Int(source[p + 3])
                out[p + 3] = UInt8(a)
                switch a {
                case 255:
                    out[p] = source[p]
                    out[p + 1] = source[p + 1]
                    out[p + 2] = source[p + 2]
                case 0:
                    out[p] = 0
                    out[p + 1] = 0
                    out[p + 2] = 0
                default:
                    for c in 0..<3 {
                        out[p + c] = UInt8(min(255, ((2 * Int(source[p + c]) + 1) * 255 + a) / (2 * a)))
                    }
                }
            }
        }
    }

    // MARK: Force decoding

    public func decompressedImage(with image: UIImage?, data: inout Data?, options: SDWebImageCoderOptions?) -> UIImage?
    {
        SDWebImageCoderHelper.decompressedImage(with: image, data: &data, options: options, encoder: self)
    }

    // MARK: Encoding

    public func canEncode(to format: SDImageFormat) -> Bool {
        format == .webp
    }

    /// Lossy WebP at quality 100 (the original's setting); animated images stay animated.
    public func encodedData(with image: UIImage?, format: SDImageFormat) -> Data? {
        guard let image, format == .webp else { return nil }
        return try? encode(image, lossless: false, quality: 100)
    }

    /// WebP data: lossy at `quality` (0...100), or lossless (`quality` is then the compression effort) with
    /// `exact` pixels. Animated images become animated WebP with their frame durations and loop count.
    public func encode(_ image: UIImage, lossless: Bool, quality: Float = 75) throws -> Data {
        guard image.pixelWidth > 0, image.pixelHeight > 0, image.pixelWidth <= 16383, image.pixelHeight <= 16383 else {
            throw SDWebImageCoderError.encodeFailed(.webp, reason: "WebP sides must be 1...16383 pixels")
        }
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else {
            throw SDWebImageCoderError.encodeFailed(.webp, reason: "libwebp version mismatch")
        }
        config.quality = max(0, min(100, quality))
        config.lossless = lossless ? 1 : 0
        config.exact = lossless ? 1 : 0
        guard WebPValidateConfig(&config) != 0 else {
            throw SDWebImageCoderError.encodeFailed(.webp, reason: "invalid encoder settings")
        }
        // No frames (a still image, or an animated one of a single entry): encoded as a still, as 4.4.8 does on
        // iOS, tvOS and watchOS (on macOS it counts the bitmap rep's frames instead).
        if let frames = SDWebImageCoderHelper.frames(from: image), !frames.isEmpty {
            return try encodeAnimated(
                frames, loopCount: image.sd_imageLoopCount, config: &config,
                width: image.pixelWidth, height: image.pixelHeight)
        }
        return try encodeStill(image, config: &config)
    }

    /// Fills a `WebPPicture` from the image's RGBA pixels and runs `body` with it.
    private func withPicture<T>(_ image: UIImage, argb: Bool, _ body: (inout WebPPicture) throws -> T) throws -> T {
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw SDWebImageCoderError.encodeFailed(.webp, reason: "libwebp version mismatch")
        }
        picture.use_argb = argb ? 1 : 0
        picture.width = Int32(image.pixelWidth)
        picture.height = Int32(image.pixelHeight)
        defer { WebPPictureFree(&picture) }
        let imported = image.pixels.withUnsafeBufferPointer { src in
            image.hasAlpha
                ? WebPPictureImportRGBA(&picture, src.baseAddress, Int32(image.bytesPerRow))
                : WebPPictureImportRGBX(&picture, src.baseAddress, Int32(image.bytesPerRow))
        }
        guard imported != 0 else { throw SDWebImageCoderError.encodeFailed(.webp, reason: "cannot import the pixels") }
        return try body(&picture)
    }

    private func encodeStill(_ image: UIImage, config: inout WebPConfig) throws -> Data {
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let lossless = config.lossless != 0
        let encoded = try withPicture(image, argb: lossless) { picture -> Int32 in
            withUnsafeMutablePointer(to: &writer) { writerPointer in
                picture.writer = WebPMemoryWrite
                picture.custom_ptr = UnsafeMutableRawPointer(writerPointer)
                return WebPEncode(&config, &picture)
            }
        }
        guard encoded != 0, let bytes = writer.mem else {
            throw SDWebImageCoderError.encodeFailed(.webp, reason: "WebPEncode failed")
        }
        return Data(bytes: bytes, count: writer.size)
    }

    private func encodeAnimated(
        _ frames: [SDWebImageFrame], loopCount: Int, config: inout WebPConfig,
        width: Int, height: Int
    ) throws -> Data {
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0 else {
            throw SDWebImageCoderError.encodeFailed(.webp, reason: "libwebp version mismatch")
        }
        options.anim_params.loop_count = Int32(clamping: loopCount)
        guard let encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &options) else {
            throw SDWebImageCoderError.encodeFailed(.webp, reason: "WebPAnimEncoderNew failed")
        }
        defer { WebPAnimEncoderDelete(encoder) }
        var timestamp: Int32 = 0
        let lossless = config.lossless != 0
        for frame in frames {
            guard frame.image.pixelWidth == width, frame.image.pixelHeight == height else {
                throw SDWebImageCoderError.encodeFailed(.webp, reason: "frames of different sizes")
            }
            let added = try withPicture(frame.image, argb: lossless) { picture in
                WebPAnimEncoderAdd(encoder, &picture, timestamp, &config)
            }
            guard added != 0 else {
                throw SDWebImageCoderError.encodeFailed(
                    .webp, reason: String(cString: WebPAnimEncoderGetError(encoder)))
            }
            timestamp += Int32((frame.duration * 1000).rounded())
        }
        guard WebPAnimEncoderAdd(encoder, nil, timestamp, nil) != 0 else {
            throw SDWebImageCoderError.encodeFailed(.webp, reason: String(cString: WebPAnimEncoderGetError(encoder)))
        }
        var output = WebPData()
        WebPDataInit(&output)
        defer { WebPDataClear(&output) }
        guard WebPAnimEncoderAssemble(encoder, &output) != 0, let bytes = output.bytes else {
            throw SDWebImageCoderError.encodeFailed(.webp, reason: String(cString: WebPAnimEncoderGetError(encoder)))
        }
        return Data(bytes: bytes, count: output.size)
    }
}
