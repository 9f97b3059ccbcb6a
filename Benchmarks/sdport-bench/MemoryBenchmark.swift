import Benchmark
import Foundation
import SDPort
import SDPortTestServer

/// Peak memory of loading one large JPEG: 5250×3450 pixels, 18.1 MP, the size
/// of the original's `TestImageLarge.jpg`, decoded to 72.5 MB of RGBA.
///
/// Each case is a benchmark of one iteration, and package-benchmark runs each benchmark in a process of its own, so
/// one case's peak and allocator state cannot colour another's. The case starts the loopback server, makes a manager
/// with its own cache directory, resets its peak resident size (`echo 5 > /proc/self/clear_refs`) and reads its
/// resident size as the baseline, loads the image through `SDWebImageManager` (download, decode, force decode,
/// store in memory and on disk), keeps the image as a view would, and reads `VmHWM`. The figure is the peak above
/// the baseline (the custom metric `peak-kB`).
///
/// Cases and goals:
/// - plain load: peak ≤ 1.5× the decoded bitmap's bytes;
/// - `ScaleDownLargeImages`: peak ≤ 1.5× the 60 MB limit the image is scaled down to;
/// - `ProgressiveDownload` (the body trickles in 24 pieces): peak ≤ 1.05× the floor of a faithful progressive
///   load, recorded as `floor-kB`: a view shows the last partial image (one full-size bitmap; OP-10 decodes the last
///   chunk too) while the final image is decoded (a second), and the operation holds the whole download's data
///   meanwhile, so two bitmaps plus the data must coexist. One bitmap per piece would be 24×.
///   The port keeps at most one partial decode in flight, as 5.x does.
enum MemoryBenchmark {
    static let width = 5250
    static let height = 3450

    static let peakMetric = BenchmarkMetric.custom("peak-kB", polarity: .prefersSmaller, useScalingFactor: false)
    static let floorMetric = BenchmarkMetric.custom("floor-kB", polarity: .prefersSmaller, useScalingFactor: false)

    static func register() {
        let bitmapKB = Double(width * height * 4) / 1024
        let limitKB = Double(SDWebImageCoderHelper.destImageSizeMB) * 1024
        for name in ["plain", "scaledown", "progressive"] {
            BenchmarkCatalog.register(
                "memory.\(name)", iterations: 1, warmup: 0, seconds: 120,
                extraMetrics: [peakMetric, floorMetric]
            ) { benchmark in
                let jpeg = try makeLargeJPEG()
                let peakKB = try runCase(name, jpeg: jpeg)
                benchmark.measurement(peakMetric, Int(peakKB))
                benchmark.measurement(floorMetric, floorKB(jpegByteCount: jpeg.count))
            }
        }
        BenchmarkGoal.atMost(
            "memory.plain-peak-vs-bitmap", 1.5, [custom("memory.plain", "peak-kB")], over: [constant(bitmapKB)],
            note: "peak resident memory above the baseline loading an 18 MP JPEG, against its 72.5 MB bitmap")
        BenchmarkGoal.atMost(
            "memory.scaledown-peak-vs-60-MB-limit", 1.5, [custom("memory.scaledown", "peak-kB")],
            over: [constant(limitKB)],
            note: "the same with ScaleDownLargeImages, against the 60 MB it is scaled down to")
        BenchmarkGoal.atMost(
            "memory.progressive-peak-vs-floor", 1.05, [custom("memory.progressive", "peak-kB")],
            over: [custom("memory.progressive", "floor-kB")],
            note: "a progressive load in 24 pieces, against two full-size bitmaps plus the data")
    }

    /// The floor of a faithful progressive load, in kB: two full-size bitmaps and the data.
    static func floorKB(jpegByteCount: Int) -> Int {
        Int((2 * Double(width * height * 4) / 1024 + Double(jpegByteCount) / 1024).rounded())
    }

    /// Loads `jpeg` once as `name` says and returns the peak resident memory above the baseline, in kB.
    static func runCase(_ name: String, jpeg: Data) throws -> Double {
        let server = SDPortTestServer()
        var route = SDPortTestRoute.data(jpeg, contentType: "image/jpeg")
        if name == "progressive" { route = route.trickle(chunkSize: jpeg.count / 24 + 1, interval: 0.02) }
        server.route("/large.jpg", route)
        try server.start()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sdport-memory-case-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let queue = DispatchQueue(label: "sdport.bench.memory")
        let (cache, _, manager) = BenchmarkManager.make(
            cacheDirectory: directory.path, namespace: "memory", queue: queue)
        var options: SDWebImageOptions = []
        if name == "scaledown" { options.insert(.scaleDownLargeImages) }
        if name == "progressive" { options.insert(.progressiveDownload) }

        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        let baseline = status("VmRSS")
        let done = DispatchSemaphore(value: 0)
        let shown = ShownImage()
        manager.loadImage(with: server.url("/large.jpg"), options: options) { image, _, error, _, finished, _ in
            // As a view would: the latest image replaces the one shown.
            if let image { shown.set(image) }
            if finished {
                if let error { FileHandle.standardError.write(Data("load failed: \(error)\n".utf8)) }
                done.signal()
            }
        }
        done.wait()
        _ = cache.diskImageDataExists(withKey: "flush")  // the store to disk has happened
        let peak = status("VmHWM")
        guard shown.image != nil else { throw DownloaderBenchmarks.BenchmarkError.failed("no image") }
        return peak - baseline
    }

    /// A field of `/proc/self/status`, in kB.
    static func status(_ field: String) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Double(line.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "0") ?? 0
        }
        return 0
    }

    /// A photo-like 18 MP JPEG: smooth gradients with a little noise, quality 90, 4:2:0.
    static func makeLargeJPEG() throws -> Data {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        var generator = DownloaderBenchmarks.SplitMix(seed: 7)
        for y in 0..<height {
            for x in 0..<width {
                let index = (y * width + x) * 3
                let noise = Int(generator.next() & 0x0F)
                pixels[index] = UInt8(truncatingIfNeeded: (x * 255 / width + noise))
                pixels[index + 1] = UInt8(truncatingIfNeeded: (y * 255 / height + noise))
                pixels[index + 2] = UInt8(truncatingIfNeeded: ((x + y) / 40 + noise))
            }
        }
        return try BenchmarkManager.encodeJPEG(rgb: pixels, width: width, height: height)
    }

    /// The image a view would be showing, set from the completion queue.
    final class ShownImage: @unchecked Sendable {
        /// Guards `stored`.
        private let lock = NSLock()
        private var stored: UIImage?
        func set(_ image: UIImage) { lock.withLock { stored = image } }
        var image: UIImage? { lock.withLock { stored } }
    }
}
