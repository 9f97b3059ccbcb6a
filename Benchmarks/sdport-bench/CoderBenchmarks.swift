import Benchmark
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
/// Each is a benchmark of its own (one decode per iteration, 30 iterations after 3 warm-up ones). The goal is
/// paired (`BenchmarkGoal.pairedAtMost`): each iteration of the manager's benchmark first runs the direct call,
/// unmeasured, and records the two's ratio; the goal is that ratio's median (why: Benchmarks/README.md, "How a
/// ratio is computed").
enum CoderBenchmarks {
    static let width = 1920, height = 1080

    /// The animation's frames: 12 frames of 480×270, each with a transparent hole.
    static let animationWidth = 480, animationHeight = 270, animationFrames = 12

    /// The encoded images, made once per process (each benchmark runs in a process of its own).
    struct Fixtures: @unchecked Sendable {
        let jpeg: Data, png: Data, webp: Data, gif: Data, animatedGIF: Data
        let animating: SDWebImageCodersManager
    }

    /// Made on first use (a `static let` is initialised once, thread-safely).
    private static let made = Result { try makeFixtures() }

    static func fixtures() throws -> Fixtures { try made.get() }

    private static func makeFixtures() throws -> Fixtures {
        let image = photoLikeImage()
        let fixtures = Fixtures(
            jpeg: try SDWebImageJPEGCoder.shared.encode(image, quality: 90),
            png: try SDWebImagePNGCoder.shared.encode(image),
            webp: try SDWebImageWebPCoder.shared.encode(image, lossless: false, quality: 80),
            gif: try SDWebImageGIFCoder.shared.encode(image),
            animatedGIF: try SDWebImageGIFCoder.shared.encode(animation(from: image)),
            // 4.4.8's default set decodes a GIF's first frame; animation is measured as an app gets it, with the
            // GIF coder added.
            animating: SDWebImageCodersManager(
                coders: SDWebImageCodersManager.defaultCoders() + [SDWebImageGIFCoder.shared]))
        // The GIF anchor must end with the same bitmaps as the coder, or the two do unlike work.
        try checkGIFAnchor(fixtures.gif, against: .shared)
        try checkGIFAnchor(fixtures.animatedGIF, against: fixtures.animating)
        return fixtures
    }

    /// Each iteration's decode through the manager over the direct call's, in thousandths (`pairedAtMost`).
    static let vsDirectMetric = BenchmarkMetric.custom(
        "vs-direct-permille", polarity: .prefersSmaller, useScalingFactor: false)

    static func register() {
        let cases: [(String, KeyPath<Fixtures, Data>, Bool, (Data) throws -> Void)] = [
            ("JPEG", \.jpeg, false, directTurboJPEG),
            ("PNG", \.png, false, directLibpng),
            ("WebP", \.webp, false, directWebP),
            ("GIF", \.gif, false, directGiflib),
            ("GIF-anim", \.animatedGIF, true, directGiflib),
        ]
        for (name, path, animated, direct) in cases {
            BenchmarkCatalog.register(
                "coders.\(name).manager", iterations: 30, warmup: 3, extraMetrics: [vsDirectMetric]
            ) { benchmark in
                let fixtures = try fixtures()
                let data = fixtures[keyPath: path]
                let directWall = try BenchmarkGoal.wallMicroseconds { try direct(data) }
                let managerWall = try BenchmarkGoal.measuredWallMicroseconds(benchmark) {
                    blackHole(try (animated ? fixtures.animating : .shared).decodeImage(from: data))
                }
                BenchmarkGoal.recordRatio(benchmark, vsDirectMetric, managerWall, over: directWall)
            }
            BenchmarkCatalog.register("coders.\(name).direct", iterations: 30, warmup: 3) { _ in
                try direct(try fixtures()[keyPath: path])
            }
            BenchmarkGoal.pairedAtMost(
                "coders.\(name).manager-vs-direct", 1.10, benchmark: "coders.\(name).manager", metric: vsDirectMetric,
                note:
                    "one decode (\(animated ? "12 frames of 480×270" : "1920×1080")) through SDWebImageCodersManager against the library called directly, in the same iteration"
            )
        }
    }

    // MARK: The direct library calls (each produces the same RGBA buffer the coder would)

    private static func directTurboJPEG(_ data: Data) throws {
        guard let handle = tjInitDecompress() else { throw BenchmarkError("tjInitDecompress") }
        defer { tjDestroy(handle) }
        try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var w: Int32 = 0
            var h: Int32 = 0
            var subsampling: Int32 = 0
            var colorspace: Int32 = 0
            guard
                tjDecompressHeader3(handle, bytes.baseAddress, UInt(bytes.count), &w, &h, &subsampling, &colorspace)
                    == 0
            else {
                throw BenchmarkError("tjDecompressHeader3")
            }
            var status: Int32 = 0
            let pixels = [UInt8](unsafeUninitializedCapacity: Int(w * h * 4)) { buffer, count in
                status = tjDecompress2(
                    handle, bytes.baseAddress, UInt(bytes.count), buffer.baseAddress, w, w * 4, h,
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
            guard png_image_begin_read_from_memory(image, raw.baseAddress, raw.count) != 0 else {
                throw BenchmarkError("png begin")
            }
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
            var w: Int32 = 0
            var h: Int32 = 0
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
        final class Source {
            let data: Data
            var offset = 0
            init(_ data: Data) { self.data = data }
        }
        let source = Unmanaged.passRetained(Source(data))
        defer { source.release() }
        var error: Int32 = 0
        guard
            let gif = DGifOpen(
                source.toOpaque(),
                { gif, buffer, length in
                    guard let gif, let buffer, let user = gif.pointee.UserData else { return 0 }
                    let source = Unmanaged<Source>.fromOpaque(user).takeUnretainedValue()
                    let n = min(Int(length), source.data.count - source.offset)
                    source.data.copyBytes(to: buffer, from: source.offset..<(source.offset + n))
                    source.offset += n
                    return Int32(n)
                }, &error)
        else { throw BenchmarkError("DGifOpen") }
        defer { DGifCloseFile(gif, &error) }
        guard DGifSlurp(gif) == GIF_OK else { throw BenchmarkError("DGifSlurp") }

        let width = Int(gif.pointee.SWidth)
        let height = Int(gif.pointee.SHeight)
        guard width > 0, height > 0, gif.pointee.ImageCount > 0 else { throw BenchmarkError("no frames") }
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var frames: [(pixels: [UInt8], hasAlpha: Bool)] = []
        for index in 0..<Int(gif.pointee.ImageCount) {
            let saved = gif.pointee.SavedImages[index]
            let desc = saved.ImageDesc
            var control = GraphicsControlBlock(
                DisposalMode: DISPOSAL_UNSPECIFIED, UserInputFlag: false, DelayTime: 0,
                TransparentColor: NO_TRANSPARENT_COLOR)
            _ = DGifSavedExtensionToGCB(gif, Int32(index), &control)  // no GCB: the defaults above
            guard let colorMap = desc.ColorMap ?? gif.pointee.SColorMap, let colors = colorMap.pointee.Colors,
                let raster = saved.RasterBits
            else { throw BenchmarkError("frame \(index) has no colour map or pixels") }
            let colorCount = Int(colorMap.pointee.ColorCount)
            let transparent = Int(control.TransparentColor)
            let left = Int(desc.Left)
            let top = Int(desc.Top)
            let frameWidth = Int(desc.Width)
            let frameHeight = Int(desc.Height)
            let x0 = max(0, left)
            let x1 = min(width, left + frameWidth)
            let y0 = max(0, top)
            let y1 = min(height, top + frameHeight)
            let previous = control.DisposalMode == DISPOSE_PREVIOUS ? canvas : nil
            canvas.withUnsafeMutableBufferPointer { pixels in
                for y in y0..<max(y0, y1) {
                    let row = raster + (y - top) * frameWidth
                    for x in x0..<max(x0, x1) {
                        let colorIndex = Int(row[x - left])
                        guard colorIndex != transparent, colorIndex < colorCount else { continue }
                        let color = colors[colorIndex]
                        let p = (y * width + x) * 4
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
        let coderFrames = (SDWebImageCoderHelper.frames(from: image)?.map(\.image) ?? [image]).map {
            ($0.pixels, $0.hasAlpha)
        }
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
            let originX = index * 100
            let originY = index * 50
            let holeX = 20 + index * 30
            let holeY = 20 + index * 15
            var pixels = [UInt8](repeating: 0, count: animationWidth * animationHeight * 4)
            for y in 0..<animationHeight {
                let source = ((originY + y) * width + originX) * 4
                let target = y * animationWidth * 4
                pixels.replaceSubrange(
                    target..<(target + animationWidth * 4),
                    with: image.pixels[source..<(source + animationWidth * 4)])
                if y >= holeY && y < holeY + 60 {
                    for x in holeX..<(holeX + 120) { pixels[target + x * 4 + 3] = 0 }
                }
            }
            frames.append(
                UIImage(pixelWidth: animationWidth, pixelHeight: animationHeight, pixels: pixels, hasAlpha: true))
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
