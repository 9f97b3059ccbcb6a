import Foundation

/// Shared work of the coders: building animated images from frames and back, force decoding (FAQ-13) and
/// scaling large images down (COD-05), and the decoders' size limit.
///
/// Ports `SDWebImageCoderHelper` (`SDWebImageCoderHelper.m`, 4.4.8: `animatedImageWithFrames:`,
/// `framesFromAnimatedImage:`) together with the decompression half of `SDWebImageImageIOCoder.m`
/// (`decompressedImageWithImage:data:options:`, `sd_decompressedImageWithImage:`,
/// `sd_decompressedAndScaledDownImageWithImage:`, `shouldDecodeImage:`, `shouldScaleDownImage:` and the
/// `kDestImageSizeMB` constants). 5.x moves the helpers into `SDImageCoderHelper` (`decodedImageWithImage:`,
/// `decodedAndScaledDownImageWithImage:limitBytes:`), the limit a parameter (a settable default since 5.5.0), and
/// drops `decompressedImageWithImage:data:options:`.
///
/// Linux differences: there is no Core Graphics context to draw into. The original (on iOS, tvOS and watchOS) "decodes"
/// by drawing a lazily-decoded `CGImage` into a bitmap context (8 bits per component, 4 bytes per pixel, premultiplied
/// alpha first, or "none skip first" when the `CGImage` has no alpha channel). Here decoders already return bitmaps, so
/// force decoding normalises one: packed rows, 4 bytes per pixel, alpha forced to 255 and `hasAlpha == false` for
/// opaque images, and marks it `sd_isDecoded`. Alpha stays straight (not premultiplied), as `UIImage` documents.
/// Scaling down resamples with an area-averaging (box) filter in one pass instead of the original's tiled
/// `CGContextDrawImage` calls; the destination size is computed as the original computes it, a side of 0 included.
/// At tag 4.4.8: `SDWebImage/SDWebImageCoderHelper.m:18` (`+animatedImageWithFrames:`), `SDWebImage/SDWebImageCoderHelper.m:86` (`+framesFromAnimatedImage:`), `SDWebImage/SDWebImageImageIOCoder.m:251` (`-sd_decompressedAndScaledDownImageWithImage:`).
/// At tag 5.21.5: `SDWebImage/Core/SDImageCoderHelper.m:654` (`+decodedImageWithImage:`), `SDWebImage/Core/SDImageCoderHelper.m:723` (`+decodedAndScaledDownImageWithImage:limitBytes:`).
public enum SDWebImageCoderHelper {
    /// Bytes per pixel of a decoded bitmap (`kBytesPerPixel`).
    public static let bytesPerPixel = 4
    /// Bits per component of a decoded bitmap (`kBitsPerComponent`).
    public static let bitsPerComponent = 8
    /// The decoded size that `SDWebImageScaleDownLargeImages` keeps images under, in MB (`kDestImageSizeMB`; 4.4.8
    /// scales down only on iOS, tvOS and watchOS, only with `shouldDecompressImages`, and never an animated image,
    /// nor, in the downloader, a GIF).
    public static let destImageSizeMB = 60
    /// The pixel budget that follows from it: 60 MB / 4 bytes = 15,728,640 pixels (`kDestTotalPixels`).
    public static let destTotalPixels = destImageSizeMB * 1024 * 1024 / bytesPerPixel

    /// The default of `maxDecodedPixelCount`: 16384 × 16384 = 268,435,456 pixels (1 GiB of RGBA).
    public static let defaultMaxDecodedPixelCount = 16384 * 16384

    /// The most pixels a decoder will allocate for one image, every frame of an animated image counted (and an
    /// animated WebP's working canvas): `defaultMaxDecodedPixelCount` unless set. Decoders read the header first (a
    /// GIF: every frame's descriptor, without decoding any) and refuse anything bigger with
    /// `SDWebImageCoderError.tooLarge` or `.animationTooLarge` before allocating, so one decode's memory stays near
    /// 4 bytes times this (REL-01). Settable from any thread (`sdport load --max-pixels`); each decode reads it when
    /// it checks a header, so a change applies to decodes that start after it. Values under 1 count as 1.
    /// Deliberate difference: 4.4.8 has no limit (ImageIO and Core Graphics allocate whatever a header asks for,
    /// `SDWebImageGIFCoder.m:58-71`, `SDWebImageWebPCoder.m:98-130`); the port adds it so that a small hostile
    /// file cannot exhaust memory.
    public static var maxDecodedPixelCount: Int {
        get { pixelLimit.wrappedValue }
        set { pixelLimit.wrappedValue = max(1, newValue) }
    }
    private static let pixelLimit = SDLocked(wrappedValue: defaultMaxDecodedPixelCount)

    // MARK: - Animated images

    /// Ports `+animatedImageWithFrames:` (COD-12): the animated image UIKit can show. UIKit gives every entry of
    /// `images` the same time, so each frame is repeated `duration / gcd` times, `gcd` being the greatest common
    /// divisor of all the durations in whole milliseconds (truncated, as 4.4.8's `duration * 1000` into an
    /// `NSUInteger`), and the whole takes the sum of them (4.4.8's iOS, tvOS and watchOS branch,
    /// `SDWebImageCoderHelper.m:26-49`). With a gcd of 0 (every duration under 1 ms) each frame appears once. A repeat
    /// is the same `UIImage` object: no bitmap is copied. nil for no frames.
    public static func animatedImage(
        with frames: [SDWebImageFrame], loopCount: Int = 0,
        format: SDImageFormat = .undefined
    ) -> UIImage? {
        guard !frames.isEmpty else { return nil }
        let milliseconds = frames.map { millisecondCount($0.duration) }
        let divisor = milliseconds.reduce(0, greatestCommonDivisor)
        var images: [UIImage] = []
        images.reserveCapacity(divisor == 0 ? frames.count : milliseconds.reduce(0) { $0 + $1 / divisor })
        for (frame, duration) in zip(frames, milliseconds) {
            let repeats = divisor == 0 ? 1 : duration / divisor
            images.append(contentsOf: repeatElement(frame.image, count: repeats))
        }
        let total = Double(milliseconds.reduce(0, +)) / 1000
        return UIImage(animatedImages: images, duration: total, loopCount: loopCount, format: format)
    }

    /// The most `images` entries `animatedImage(with:)` may make: 1,048,576 (8 MB of references) unless set.
    /// Settable from any thread; values under 1 count as 1.
    /// Deliberate difference (REL-01): 4.4.8 (on iOS, tvOS and watchOS) repeats each frame `duration / gcd` times with
    /// no bound (`SDWebImageCoderHelper.m:41-47`), so 2,000 one-pixel frames whose delays alternate 655.35 s and 20 ms
    /// ask for over 65 million entries; the coders check `checkAnimationEntries(_:)` first and refuse such a file.
    public static var maxAnimationEntryCount: Int {
        get { entryLimit.wrappedValue }
        set { entryLimit.wrappedValue = max(1, newValue) }
    }
    private static let entryLimit = SDLocked(wrappedValue: 1 << 20)

    /// How many `images` entries `animatedImage(with:)` makes for `frames`, with the common tick in milliseconds.
    static func animationEntryCount(_ frames: [SDWebImageFrame]) -> (entries: Int, tick: Int) {
        let milliseconds = frames.map { millisecondCount($0.duration) }
        let divisor = milliseconds.reduce(0, greatestCommonDivisor)
        guard divisor > 0 else { return (frames.count, 0) }
        return (milliseconds.reduce(0) { $0 + $1 / divisor }, divisor)
    }

    /// Throws `tooManyAnimationEntries` when `animatedImage(with:)` would make more entries than
    /// `maxAnimationEntryCount`. The coders call it before building an animated image.
    static func checkAnimationEntries(_ frames: [SDWebImageFrame]) throws {
        let (entries, tick) = animationEntryCount(frames)
        let limit = maxAnimationEntryCount
        if entries > limit {
            throw SDWebImageCoderError.tooManyAnimationEntries(
                entries: entries, frames: frames.count, tick: tick,
                limit: limit)
        }
    }

    /// Ports `+framesFromAnimatedImage:` (COD-12): the frames of an animated image, each of `duration / images.count`
    /// (100 ms when that is 0) times how often it repeats in a row, a run of the same object (4.4.8: `isEqual:`) being
    /// one frame (4.4.8's iOS, tvOS and watchOS branch, `SDWebImageCoderHelper.m:95-128`). nil for a still image. Kept
    /// from that branch: an animated image of a single entry gives an empty list, because its loop adds a frame only
    /// from the second entry on.
    public static func frames(from animatedImage: UIImage?) -> [SDWebImageFrame]? {
        guard let animatedImage, let images = animatedImage.images, let first = images.first else { return nil }
        var average = animatedImage.duration / Double(images.count)
        if average == 0 { average = 0.1 }
        var frames: [SDWebImageFrame] = []
        var previous = first
        var repeats = 1
        for (index, image) in images.enumerated().dropFirst() {
            if image === previous {
                repeats += 1
            } else {
                frames.append(SDWebImageFrame(image: previous, duration: average * Double(repeats)))
                repeats = 1
            }
            previous = image
            if index == images.count - 1 {
                frames.append(SDWebImageFrame(image: previous, duration: average * Double(repeats)))
            }
        }
        return frames
    }

    /// `duration` in whole milliseconds, truncated and never negative (4.4.8's iOS, tvOS and watchOS branch stores
    /// `duration * 1000` in an unsigned integer).
    private static func millisecondCount(_ duration: TimeInterval) -> Int {
        guard duration.isFinite, duration > 0 else { return 0 }
        return Int(min(duration * 1000, Double(Int32.max)))
    }

    /// Euclid's greatest common divisor (`gcd` and `gcdArray` in `SDWebImageCoderHelper.m:236-255`); gcd(0, n) is n.
    private static func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }

    /// Checks a header's size against `maxDecodedPixelCount`: `frames` frames of that size plus `workingCanvases`
    /// more that the decoder keeps while compositing. One still image over the limit is `tooLarge`; an animation
    /// is `animationTooLarge`, which says how many frames of what size it needed.
    static func checkPixelBudget(width: Int, height: Int, frames: Int = 1, workingCanvases: Int = 0) throws {
        let limit = maxDecodedPixelCount
        let (pixels, overflow1) = width.multipliedReportingOverflow(by: height)
        let (total, overflow2) = pixels.multipliedReportingOverflow(by: max(1, frames) + workingCanvases)
        guard overflow1 || overflow2 || total > limit else { return }
        if frames <= 1 && workingCanvases == 0 {
            throw SDWebImageCoderError.tooLarge(width: width, height: height)
        }
        throw SDWebImageCoderError.animationTooLarge(
            frames: max(1, frames), width: width, height: height,
            workingCanvases: workingCanvases, limit: limit)
    }

    /// Whether any pixel of a packed RGBA buffer has alpha under 255.
    static func containsTransparency(_ pixels: [UInt8]) -> Bool {
        pixels.withUnsafeBytes { raw in
            // AND of every pixel as one little-endian word: its top byte is 255 only if every alpha byte is.
            // One branch-free pass the compiler vectorises; it runs on every force decode.
            let words = raw.count / 4
            var all: UInt32 = 0xFFFF_FFFF
            // Bytes after the last whole pixel hold no alpha byte, as in a per-byte walk from index 3.
            for index in 0..<words { all &= raw.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self) }
            return UInt32(littleEndian: all) >> 24 != 0xFF
        }
    }

    /// An RGBA buffer of `count` bytes that `fill` initialises completely (no zero-filling first).
    static func makePixels(count: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) throws -> Void) rethrows -> [UInt8] {
        try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            try fill(buffer)
            initialized = count
        }
    }

    // MARK: - Force decoding (FAQ-13, COD-04) and scaling down (COD-05)

    /// Ports `+shouldDecodeImage:`: nil and animated images are not decoded. The port also skips images
    /// already decoded (`sd_isDecoded`, which 5.x checks through `UIImage+ForceDecode`).
    public static func shouldDecodeImage(_ image: UIImage?) -> Bool {
        guard let image else { return false }
        if image.images != nil { return false }
        if image.sd_isDecoded { return false }
        return image.pixelWidth > 0 && image.pixelHeight > 0
    }

    /// Ports `+shouldScaleDownImage:`: whether the image has more pixels than `limitPixels`.
    public static func shouldScaleDownImage(_ image: UIImage, limitPixels: Int = destTotalPixels) -> Bool {
        image.pixelWidth * image.pixelHeight > limitPixels
    }

    /// The size `decompressedAndScaledDownImage` gives an image of `width` × `height` pixels: both sides times
    /// sqrt(limit / pixels), truncated, as the original's `(int)(sourceResolution.width * imageScale)`
    /// (`SDWebImageImageIOCoder.m:274-277`). Only an extreme aspect ratio truncates a side to 0 (chapter 06 gives the
    /// bound); 4.4.8 then gets no bitmap context and returns the image unscaled (`:297-299`), and so does the port.
    public static func scaledDownSize(width: Int, height: Int, limitPixels: Int = destTotalPixels) -> (
        width: Int, height: Int
    ) {
        let scale = (Double(limitPixels) / Double(width * height)).squareRoot()
        return (Int(Double(width) * scale), Int(Double(height) * scale))
    }

    /// Ports `-decompressedImageWithImage:data:options:` of the ImageIO coder as 4.4.8 runs it on iOS, tvOS and
    /// watchOS: force-decodes the image, or, when the options ask for `SDWebImageCoderScaleDownLargeImagesKey`,
    /// scales it down if it is over the 60 MB limit and then re-encodes `data` in its original format so that the
    /// disk cache keeps the smaller image. `encoder` does that encoding (nil: the shared coders manager). On macOS
    /// 4.4.8 returns the image untouched; FAQ-13's follow-ups say more.
    public static func decompressedImage(
        with image: UIImage?, data: inout Data?, options: SDWebImageCoderOptions?,
        encoder: (any SDWebImageCoder)? = nil
    ) -> UIImage? {
        guard let image else { return nil }
        guard options?[SDWebImageCoderScaleDownLargeImagesKey] == true else {
            return decompressedImage(image)
        }
        guard let scaled = decompressedAndScaledDownImage(image) else { return image }
        if scaled.pixelWidth != image.pixelWidth || scaled.pixelHeight != image.pixelHeight {
            let format = Data.sd_imageFormat(forImageData: data)
            let coder = encoder ?? SDWebImageCodersManager.shared
            if let encoded = coder.encodedData(with: scaled, format: format) {
                data = encoded
            }
        }
        return scaled
    }

    /// Ports `-sd_decompressedImageWithImage:`: a new image holding a packed 8-bit RGBA bitmap, alpha 255 in
    /// every pixel of an opaque image, marked `sd_isDecoded`. Returns `image` itself when it should not be
    /// decoded (nil, animated, already decoded).
    public static func decompressedImage(_ image: UIImage?) -> UIImage? {
        guard let image, shouldDecodeImage(image) else { return image }
        let rowBytes = image.pixelWidth * bytesPerPixel
        var pixels: [UInt8]
        if image.bytesPerRow == rowBytes {
            pixels = image.pixels  // shares storage until written (copy on write)
        } else {
            pixels = makePixels(count: rowBytes * image.pixelHeight) { out in
                image.pixels.withUnsafeBufferPointer { src in
                    for y in 0..<image.pixelHeight {
                        UnsafeMutableRawPointer(out.baseAddress! + y * rowBytes)
                            .copyMemory(from: src.baseAddress! + y * image.bytesPerRow, byteCount: rowBytes)
                    }
                }
            }
        }
        // "Alpha skipped": an opaque bitmap's fourth byte is padding, always 255. Decoders already write 255
        // there, so the bitmap is read first and copied (copy on write) only when some byte must change.
        if !image.hasAlpha && containsTransparency(pixels) {
            pixels.withUnsafeMutableBufferPointer { buffer in
                var i = 3
                while i < buffer.count {
                    if buffer[i] != 255 { buffer[i] = 255 }
                    i += 4
                }
            }
        }
        let decoded = UIImage(
            pixelWidth: image.pixelWidth, pixelHeight: image.pixelHeight, pixels: pixels,
            bytesPerRow: rowBytes, hasAlpha: image.hasAlpha, scale: image.scale,
            format: image.sd_imageFormat)
        decoded.sd_isDecoded = true
        return decoded
    }

    /// Ports `-sd_decompressedAndScaledDownImageWithImage:`: images over `limitPixels` (15,728,640 by
    /// default, 60 MB of RGBA) are resampled to `scaledDownSize`, keeping the aspect ratio; smaller ones are
    /// only force-decoded. The result is decoded (`sd_isDecoded`) and keeps the image's scale and format.
    public static func decompressedAndScaledDownImage(_ image: UIImage?, limitPixels: Int = destTotalPixels) -> UIImage?
    {
        guard let image, shouldDecodeImage(image) else { return image }
        guard shouldScaleDownImage(image, limitPixels: limitPixels) else { return decompressedImage(image) }
        let size = scaledDownSize(width: image.pixelWidth, height: image.pixelHeight, limitPixels: limitPixels)
        guard size.width > 0, size.height > 0 else { return image }  // 4.4.8: no context, the image as it is
        let pixels = SDImageBoxResampler.resample(image, toWidth: size.width, height: size.height)
        let scaled = UIImage(
            pixelWidth: size.width, pixelHeight: size.height, pixels: pixels, hasAlpha: image.hasAlpha,
            scale: image.scale, format: image.sd_imageFormat)
        scaled.sd_isDecoded = true
        return scaled
    }
}
