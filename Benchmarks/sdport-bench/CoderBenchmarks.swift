import CGIF
import CPNG
import CTurboJPEG
import CWebP
import Foundation
import SDPort

/// Decode throughput per format, in megapixels per second, through `SDWebImageCodersManager` and, beside it, the
/// same bytes decoded by the library called directly (TurboJPEG `tjDecompress2`, libpng's simplified API,
/// `WebPDecodeRGBAInto`, and for GIF `DGifSlurp` followed by compositing written here against giflib). The image
/// is a 1920×1080 photo-like picture (gradients, waves, noise) made in memory and encoded with the project's own
/// encoders; GIF is measured twice, as that still image and as a 12-frame 480×270 animation with transparency.
/// The goal, for every format: decoding through the manager costs at most 10 % more than the library called
/// directly (printed beside each measured ratio).
///
/// The direct path must do the same work the coder must, or the ratio compares unlike things: each one ends with
/// the RGBA8 bitmap a `UIImage` holds. For GIF that means giflib's palette indices are not enough: the anchor
/// composites every frame onto a canvas as browsers do (and as `SDWebImageGIFCoder` must) — colour map lookup,
/// the transparent index, disposal modes 2 and 3 — keeps a copy of the canvas per frame and notes whether
/// a frame has transparency.
///
/// Each round runs the manager and the direct call alternately (so machine load hits both alike) for a
/// fixed number of iterations; the report gives the best and the median time per decode.
enum CoderBenchmarks {
    static let width = 1920, height = 1080
    static let rounds = 30

    /// The animation's frames: 12 frames of 480×270, each with a transparent hole.
    static let animationWidth = 480, animationHeight = 270, animationFrames = 12

    static func run() throws {
        let image = photoLikeImage()
        let jpeg = try SDWebImageJPEGCoder.shared.encode(image, quality: 90)
        let png = try SDWebImagePNGCoder.shared.encode(image)
        let webp = try SDWebImageWebPCoder.shared.encode(image, lossless: false, quality: 80)
        let gif = try SDWebImageGIFCoder.shared.encode(image)
        let animatedGIF = try SDWebImageGIFCoder.shared.encode(animation(from: image))
        let manager = SDWebImageCodersManager.shared
        // 4.4.8's default set decodes a GIF's first frame; animation is measured as an app gets it, with the GIF
        // coder added.
        let animating = SDWebImageCodersManager(coders: SDWebImageCodersManager.defaultCoders() + [SDWebImageGIFCoder.shared])
        print("image: \(width)×\(height) photo-like; JPEG q90 \(jpeg.count / 1024) KB, PNG \(png.count / 1024) KB, "
              + "WebP q80 \(webp.count / 1024) KB, GIF \(gif.count / 1024) KB; animated GIF \(animationFrames) × "
              + "\(animationWidth)×\(animationHeight) \(animatedGIF.count / 1024) KB; \(rounds) decodes each, alternating")
        print("format    path                           best ms  median ms   MP/s (best)")

        let stillPixels = Double(width * height) / 1e6
        let animationPixels = Double(animationWidth * animationHeight * animationFrames) / 1e6
        let cases: [(String, Data, Double, SDWebImageCodersManager, String, String, (Data) throws -> Void)] = [
            ("JPEG", jpeg, stillPixels, manager, "SDWebImageCodersManager", "tjDecompress2 (direct)", directTurboJPEG),
            ("PNG", png, stillPixels, manager, "SDWebImageCodersManager", "png_image_* (direct)", directLibpng),
            ("WebP", webp, stillPixels, manager, "SDWebImageCodersManager", "WebPDecodeRGBAInto (direct)", directWebP),
            ("GIF", gif, stillPixels, manager, "SDWebImageCodersManager", "giflib + compositing (direct)", directGiflib),
            ("GIF anim", animatedGIF, animationPixels, animating, "manager + GIF coder", "giflib + compositing (direct)",
             directGiflib),
        ]
        try checkGIFAnchor(gif, against: manager)
        try checkGIFAnchor(animatedGIF, against: animating)
        for (name, data, megapixels, coders, coderLabel, directLabel, direct) in cases {
            let (managerTimes, directTimes) = try alternate(
                { _ = try coders.decodeImage(from: data) }, { try direct(data) })
            report(name, coderLabel, managerTimes, megapixels: megapixels)
            report(name, directLabel, directTimes, megapixels: megapixels)
            let overhead = (managerTimes.min()! / directTimes.min()! - 1) * 100
            let medianOverhead = (median(managerTimes) / median(directTimes) - 1) * 100
            BenchmarkGoal.record("coders.\(name.replacingOccurrences(of: " ", with: "-")).manager-vs-direct",
                                 ratio: managerTimes.min()! / directTimes.min()!, atMost: 1.10)
            print(String(format: "          manager vs direct: %+.1f %% (best), %+.1f %% (median) (goal <= +10 %%)",
                         overhead, medianOverhead))
        }
    }

    /// Runs `a` and `b` alternately, a few times first to warm up, and returns their durations in seconds.
    private static func alternate(_ a: () throws -> Void, _ b: () throws -> Void) throws -> ([Double], [Double]) {
        for _ in 0..<3 {
            try a()
            try b()
        }
        var timesA: [Double] = [], timesB: [Double] = []
        for _ in 0..<rounds {
            timesA.append(try time(a))
            timesB.append(try time(b))
        }
        return (timesA, timesB)
    }

    private static func time(_ body: () throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    private static func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }

    private static func report(_ format: String, _ path: String, _ times: [Double], megapixels: Double) {
        let label = format.padding(toLength: 10, withPad: " ", startingAt: 0) + path.padding(toLength: 31, withPad: " ", startingAt: 0)
        print(label + String(format: "%7.2f  %9.2f   %7.1f", times.min()! * 1000, median(times) * 1000, megapixels / times.min()!))
    }

    // MARK: The direct library calls (each produces the same RGBA buffer the coder would)

    private static func directTurboJPEG(_ data: Data) throws {
        guard let handle = tjInitDecompress() else { throw BenchmarkError("tjInitDecompress") }
        defer { tjDestroy(handle) }
        try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var w: Int32 = 0, h: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
            guard tjDecompressHeader3(handle, bytes.baseAddress, UInt(bytes.count), &w, &h, &subsampling, &colorspace) == 0 else {
                throw BenchmarkError("tjDecompressHeader3")
            }
            var status: Int32 = 0
            let pixels = [UInt8](unsafeUninitializedCapacity: Int(w * h * 4)) { buffer, count in
                status = tjDecompress2(handle, bytes.baseAddress, UInt(bytes.count), buffer.baseAddress, w, w * 4, h,
                                       Int32(TJPF_RGBA.rawValue), 0)
                count = buffer.count
            }
            guard status == 0, pixels.count == Int(w * h * 4) else { throw BenchmarkError("tjDecompress2") }
        }
    }

    private static func directLibpng(_ data: Data) throws {
        let image = UnsafeMutablePointer<png_image>.allocate(capacity: 1)
        image.initialize(to: png_image())
        defer {
            png_image_free(image)
            image.deallocate()
        }
        image.pointee.version = UInt32(PNG_IMAGE_VERSION)
        try data.withUnsafeBytes { raw in
            guard png_image_begin_read_from_memory(image, raw.baseAddress, raw.count) != 0 else { throw BenchmarkError("png begin") }
            image.pointee.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
            let size = Int(image.pointee.width * image.pointee.height * 4)
            var ok: Int32 = 0
            _ = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                ok = png_image_finish_read(image, nil, buffer.baseAddress, 0, nil)
                count = size
            }
            guard ok != 0 else { throw BenchmarkError("png finish") }
        }
    }

    private static func directWebP(_ data: Data) throws {
        try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var w: Int32 = 0, h: Int32 = 0
            guard WebPGetInfo(bytes.baseAddress, bytes.count, &w, &h) != 0 else { throw BenchmarkError("WebPGetInfo") }
            var ok = false
            _ = [UInt8](unsafeUninitializedCapacity: Int(w * h * 4)) { buffer, count in
                ok = WebPDecodeRGBAInto(bytes.baseAddress, bytes.count, buffer.baseAddress, buffer.count, w * 4) != nil
                count = buffer.count
            }
            guard ok else { throw BenchmarkError("WebPDecodeRGBAInto") }
        }
    }

    /// A GIF decoded as a browser shows it, written directly against giflib: `DGifSlurp` reads every frame
    /// (de-interlaced), then each frame is composited onto an RGBA canvas of the logical screen — colour map
    /// lookup, the transparent index skipped, disposal 2 (clear the frame's area) and 3 (restore the canvas) —
    /// and the canvas is copied out per frame with a note of whether it has transparency. That is the work
    /// `SDWebImageGIFCoder` must do for its `UIImage` frames; durations and the loop count are left out, as
    /// they cost nothing measurable.
    private static func directGiflib(_ data: Data) throws {
        _ = try compositedGIFFrames(data)
    }

    /// The frames `directGiflib` composites: each frame's RGBA canvas and whether it has transparency.
    private static func compositedGIFFrames(_ data: Data) throws -> [(pixels: [UInt8], hasAlpha: Bool)] {
        final class Source { let data: Data; var offset = 0; init(_ data: Data) { self.data = data } }
        let source = Unmanaged.passRetained(Source(data))
        defer { source.release() }
        var error: Int32 = 0
        guard let gif = DGifOpen(source.toOpaque(), { gif, buffer, length in
            guard let gif, let buffer, let user = gif.pointee.UserData else { return 0 }
            let source = Unmanaged<Source>.fromOpaque(user).takeUnretainedValue()
            let n = min(Int(length), source.data.count - source.offset)
            source.data.copyBytes(to: buffer, from: source.offset..<(source.offset + n))
            source.offset += n
            return Int32(n)
        }, &error) else { throw BenchmarkError("DGifOpen") }
        defer { DGifCloseFile(gif, &error) }
        guard DGifSlurp(gif) == GIF_OK else { throw BenchmarkError("DGifSlurp") }

        let width = Int(gif.pointee.SWidth), height = Int(gif.pointee.SHeight)
        guard width > 0, height > 0, gif.pointee.ImageCount > 0 else { throw BenchmarkError("no frames") }
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var frames: [(pixels: [UInt8], hasAlpha: Bool)] = []
        for index in 0..<Int(gif.pointee.ImageCount) {
            let saved = gif.pointee.SavedImages[index]
            let desc = saved.ImageDesc
            var control = GraphicsControlBlock(DisposalMode: DISPOSAL_UNSPECIFIED, UserInputFlag: false, DelayTime: 0,
                                               TransparentColor: NO_TRANSPARENT_COLOR)
            _ = DGifSavedExtensionToGCB(gif, Int32(index), &control)  // no GCB: the defaults above
            guard let colorMap = desc.ColorMap ?? gif.pointee.SColorMap, let colors = colorMap.pointee.Colors,
                  let raster = saved.RasterBits
            else { throw BenchmarkError("frame \(index) has no colour map or pixels") }
            let colorCount = Int(colorMap.pointee.ColorCount), transparent = Int(control.TransparentColor)
            let left = Int(desc.Left), top = Int(desc.Top), frameWidth = Int(desc.Width), frameHeight = Int(desc.Height)
            let x0 = max(0, left), x1 = min(width, left + frameWidth)
            let y0 = max(0, top), y1 = min(height, top + frameHeight)
            let previous = control.DisposalMode == DISPOSE_PREVIOUS ? canvas : nil
            canvas.withUnsafeMutableBufferPointer { pixels in
                for y in y0..<max(y0, y1) {
                    let row = raster + (y - top) * frameWidth
                    for x in x0..<max(x0, x1) {
                        let colorIndex = Int(row[x - left])
                        guard colorIndex != transparent, colorIndex < colorCount else { continue }
                        let color = colors[colorIndex], p = (y * width + x) * 4
                        pixels[p] = color.Red
                        pixels[p + 1] = color.Green
                        pixels[p + 2] = color.Blue
                        pixels[p + 3] = 255
                    }
                }
            }
            let hasAlpha = canvas.withUnsafeBufferPointer { pixels -> Bool in
                var i = 3
                while i < pixels.count {
                    if pixels[i] != 255 { return true }
                    i += 4
                }
                return false
            }
            frames.append((canvas, hasAlpha))
            switch control.DisposalMode {
            case DISPOSE_BACKGROUND where x0 < x1:
                canvas.withUnsafeMutableBufferPointer { pixels in
                    for y in y0..<max(y0, y1) {
                        (pixels.baseAddress! + (y * width + x0) * 4).update(repeating: 0, count: (x1 - x0) * 4)
                    }
                }
            case DISPOSE_PREVIOUS:
                if let previous { canvas = previous }
            default:
                break
            }
        }
        return frames
    }

    /// Checks once, before timing, that the GIF anchor ends with the same bitmaps as the coder (so the two do
    /// the same work).
    private static func checkGIFAnchor(_ data: Data, against manager: SDWebImageCodersManager) throws {
        let image = try manager.decodeImage(from: data)
        let coderFrames = (SDWebImageCoderHelper.frames(from: image)?.map(\.image) ?? [image]).map { ($0.pixels, $0.hasAlpha) }
        let anchorFrames = try compositedGIFFrames(data)
        guard coderFrames.count == anchorFrames.count,
              zip(coderFrames, anchorFrames).allSatisfy({ $0.0 == $1.pixels && $0.1 == $1.hasAlpha })
        else { throw BenchmarkError("the GIF anchor's frames differ from SDWebImageGIFCoder's") }
    }

    /// A 12-frame animation cut from the photo-like image: each frame a 480×270 window moved along the picture,
    /// with a 120×60 fully transparent hole that moves too, so the frames have transparency and the encoder
    /// gives them disposal 2.
    private static func animation(from image: UIImage) -> UIImage {
        var frames: [UIImage] = []
        for index in 0..<animationFrames {
            let originX = index * 100, originY = index * 50
            let holeX = 20 + index * 30, holeY = 20 + index * 15
            var pixels = [UInt8](repeating: 0, count: animationWidth * animationHeight * 4)
            for y in 0..<animationHeight {
                let source = ((originY + y) * width + originX) * 4
                let target = y * animationWidth * 4
                pixels.replaceSubrange(target..<(target + animationWidth * 4),
                                       with: image.pixels[source..<(source + animationWidth * 4)])
                if y >= holeY && y < holeY + 60 {
                    for x in holeX..<(holeX + 120) { pixels[target + x * 4 + 3] = 0 }
                }
            }
            frames.append(UIImage(pixelWidth: animationWidth, pixelHeight: animationHeight, pixels: pixels, hasAlpha: true))
        }
        return UIImage(animatedImages: frames, duration: 0.1 * Double(animationFrames), loopCount: 0)!
    }

    /// Gradients, a few waves and fine noise: compresses like a photo, not like a flat graphic.
    private static func photoLikeImage() -> UIImage {
        var generator = SystemRandomNumberGenerator()
        var noise = (0..<4096).map { _ in Int.random(in: -12...12, using: &generator) }
        noise.shuffle(using: &generator)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let wave = sin(Double(x) / 37) * 40 + cos(Double(y) / 23) * 30 + sin(Double(x + y) / 91) * 25
                let n = noise[(x * 31 + y * 17) & 4095]
                let i = (y * width + x) * 4
                pixels[i] = UInt8(clamping: Int(Double(x) * 200 / Double(width) + wave) + n + 20)
                pixels[i + 1] = UInt8(clamping: Int(Double(y) * 180 / Double(height) - wave / 2) + n + 40)
                pixels[i + 2] = UInt8(clamping: Int(150 + wave) - n / 2)
            }
        }
        return UIImage(pixelWidth: width, pixelHeight: height, pixels: pixels, hasAlpha: false)
    }

    struct BenchmarkError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
