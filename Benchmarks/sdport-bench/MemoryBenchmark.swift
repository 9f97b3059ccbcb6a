import Foundation
import SDPort
import SDPortTestServer

/// Peak memory of loading one large JPEG (SDWebImage #1072, #2427): 5250×3450 pixels, 18.1 MP, the size
/// of the original's `TestImageLarge.jpg`, decoded to 72.5 MB of RGBA.
///
/// Each case runs in a child process of its own (`sdport-bench memory-case NAME FILE`), so one case's peak and
/// allocator state cannot colour another's. The child starts the loopback server, makes a manager with its own
/// cache directory, resets its peak resident size (`echo 5 > /proc/self/clear_refs`) and reads its resident
/// size as the baseline, loads the image through `SDWebImageManager` (download, decode, force decode, store in
/// memory and on disk), keeps the image as a view would, and reads `VmHWM`. The figure is the peak above the
/// baseline.
///
/// Cases and goals:
/// - plain load: peak ≤ 1.5× the decoded bitmap's bytes;
/// - `ScaleDownLargeImages`: peak ≤ 1.5× the 60 MB limit the image is scaled down to;
/// - `ProgressiveDownload` (the body trickles in 24 pieces): peak ≤ 2.0× the bitmap's bytes. A view shows the
///   last partial image (one full-size bitmap) while the final image decodes (a second), so two bitmaps and the
///   data are the floor of a progressive load; one bitmap per piece (SDWebImage #2427) would be 24×. The port
///   keeps at most one partial decode in flight, as 5.x does.
enum MemoryBenchmark {
    static let width = 5250
    static let height = 3450

    static func run() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sdport-memory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("large.jpg")
        try makeLargeJPEG().write(to: file)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        let bitmapMB = Double(width * height * 4) / 1_048_576
        let limitMB = Double(SDWebImageCoderHelper.destImageSizeMB)
        print(String(format: "%d×%d JPEG of %.1f MB (decoded bitmap %.1f MB); peak resident memory above the baseline, each case in its own process:",
                     width, height, Double(bytes) / 1_048_576, bitmapMB))
        let cases: [(name: String, label: String, bound: Double, boundLabel: String, goal: Double)] = [
            ("plain", "load", bitmapMB, "bitmap", 1.5),
            ("scaledown", "load with ScaleDownLargeImages", limitMB, "60 MB limit", 1.5),
            ("progressive", "progressive download (24 pieces)", bitmapMB, "bitmap", 2.0),
        ]
        for item in cases {
            let result = try runChild(item.name, file: file)
            let ratio = result.peakMB / item.bound
            print(String(format: "  %@ peak %6.1f MB above a %5.1f MB baseline, image %d×%d: %.2fx the %@ (goal <= %.1fx)",
                         item.label.padding(toLength: 34, withPad: " ", startingAt: 0), result.peakMB, result.baselineMB,
                         result.width, result.height, ratio, item.boundLabel, item.goal))
            BenchmarkGoal.record("memory.\(item.name)-peak-vs-\(item.boundLabel.replacingOccurrences(of: " ", with: "-"))",
                                 ratio: ratio, atMost: item.goal)
        }
    }

    struct ChildResult { let peakMB: Double; let baselineMB: Double; let width: Int; let height: Int }

    static func runChild(_ name: String, file: URL) throws -> ChildResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["memory-case", name, file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        let fields = text.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard process.terminationStatus == 0, fields.count == 4 else {
            throw DownloaderBenchmarks.BenchmarkError.failed("memory case \(name) failed (\(process.terminationStatus)): \(text)")
        }
        return ChildResult(peakMB: fields[0], baselineMB: fields[1], width: Int(fields[2]), height: Int(fields[3]))
    }

    /// The child: loads the file once as `name` says and prints "peakMB baselineMB width height".
    static func runCase(_ name: String, path: String) throws {
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: path))
        let server = SDPortTestServer()
        var route = SDPortTestRoute.data(jpeg, contentType: "image/jpeg")
        if name == "progressive" { route = route.trickle(chunkSize: jpeg.count / 24 + 1, interval: 0.02) }
        server.route("/large.jpg", route)
        try server.start()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sdport-memory-case-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let queue = DispatchQueue(label: "sdport.bench.memory")
        let (cache, _, manager) = BenchmarkManager.make(cacheDirectory: directory.path, namespace: "memory", queue: queue)
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
        guard let image = shown.image else { throw DownloaderBenchmarks.BenchmarkError.failed("no image") }
        print(String(format: "%.1f %.1f %d %d", (peak - baseline) / 1024, baseline / 1024, image.pixelWidth, image.pixelHeight))
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
