import CGIF
import CPNG
import CTurboJPEG
import CWebP
import Foundation
import SDPort

/// Decode throughput per format, in megapixels per second, through `SDWebImageCodersManager` and, beside it, the
/// same bytes decoded by a direct library call (TurboJPEG `tjDecompress2`, libpng's simplified API,
/// `WebPDecodeRGBAInto`, giflib's `DGifSlurp`). The image is a 1920×1080 photo-like picture (gradients, waves,
/// noise) made in memory and encoded with the project's own encoders. The goal: the manager's JPEG path costs
/// at most 10 % more than the direct TurboJPEG call.
///
/// Each round runs the manager and the direct call alternately (so machine load hits both alike) for a
/// fixed number of iterations; the report gives the best and the median time per decode.
enum CoderBenchmarks {
    static let width = 1920, height = 1080
    static let rounds = 30

    static func run() throws {
        let image = photoLikeImage()
        let jpeg = try SDWebImageJPEGCoder.shared.encode(image, quality: 90)
        let png = try SDWebImagePNGCoder.shared.encode(image)
        let webp = try SDWebImageWebPCoder.shared.encode(image, lossless: false, quality: 80)
        let gif = try SDWebImageGIFCoder.shared.encode(image)
        let manager = SDWebImageCodersManager.shared
        print("image: \(width)×\(height) photo-like; JPEG q90 \(jpeg.count / 1024) KB, PNG \(png.count / 1024) KB, "
              + "WebP q80 \(webp.count / 1024) KB, GIF \(gif.count / 1024) KB; \(rounds) decodes each, alternating")
        print("format  path                        best ms  median ms   MP/s (best)")

        let cases: [(String, Data, (Data) throws -> Void)] = [
            ("JPEG", jpeg, directTurboJPEG), ("PNG", png, directLibpng), ("WebP", webp, directWebP), ("GIF", gif, directGiflib),
        ]
        for (name, data, direct) in cases {
            let (managerTimes, directTimes) = try alternate(
                { _ = try manager.decodeImage(from: data) }, { try direct(data) })
            report(name, "SDWebImageCodersManager", managerTimes)
            report(name, directLabel(name), directTimes)
            let overhead = (managerTimes.min()! / directTimes.min()! - 1) * 100
            let medianOverhead = (median(managerTimes) / median(directTimes) - 1) * 100
            print(String(format: "        manager vs direct: %+.1f %% (best), %+.1f %% (median)", overhead, medianOverhead))
        }
    }

    private static func directLabel(_ format: String) -> String {
        switch format {
        case "JPEG": return "tjDecompress2 (direct)"
        case "PNG": return "png_image_* (direct)"
        case "WebP": return "WebPDecodeRGBAInto (direct)"
        default: return "DGifSlurp, no compositing"
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

    private static func report(_ format: String, _ path: String, _ times: [Double]) {
        let megapixels = Double(width * height) / 1e6
        let label = format.padding(toLength: 8, withPad: " ", startingAt: 0) + path.padding(toLength: 28, withPad: " ", startingAt: 0)
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

    /// giflib's own whole-file decode: palette indices only (no colour lookup, no compositing, no RGBA).
    private static func directGiflib(_ data: Data) throws {
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
