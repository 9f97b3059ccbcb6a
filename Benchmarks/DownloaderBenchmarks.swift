import CTurboJPEG
import Foundation
import SDPort
import SDPortTestServer

/// Benchmarks of the downloader layer (issue 4):
/// 1. 200 JPEGs of about 100 KB from the loopback test server, 6 downloads at a time, through
///    `SDWebImageDownloader` (download + decode + force-decode) against the curl command line tool fetching the
///    same URLs with `--parallel --parallel-max 6` in the same run (goal: at most 1.15 × curl's time).
/// 2. 100 requests for one URL while it downloads: how many reach the server (must be exactly 1).
///
/// The server runs in this process on its own two event-loop threads; curl runs as a child process.
enum DownloaderBenchmarks {
    static let imageCount = 200
    static let rounds = 5

    static func run() throws {
        let jpeg = try makeJPEG(targetBytes: 100_000)
        let server = SDPortTestServer()
        for index in 0..<imageCount {
            server.route("/img/\(index).jpg", .data(jpeg, contentType: "image/jpeg"))
        }
        server.route("/one.jpg", .data(jpeg, contentType: "image/jpeg").delay(0.2))
        try server.start()
        defer { server.stop() }
        let urls = (0..<imageCount).map { server.url("/img/\($0).jpg") }
        print("payload: \(imageCount) JPEGs of \(jpeg.count) bytes (\(jpeg.count / 1024) KiB) from \(server.baseURL)")

        guard let curl = findCurl() else {
            print("curl not found on PATH (apt-get install curl); skipping the comparison")
            return
        }
        // Warm up both (connections, page cache, lazy initialisation), then alternate.
        _ = try timeCurl(curl, urls: urls)
        _ = try timeDownloader(urls: urls, decompress: true)
        var curlTimes: [Double] = []
        var portTimes: [Double] = []
        var portNoDecompressTimes: [Double] = []
        for _ in 0..<rounds {
            curlTimes.append(try timeCurl(curl, urls: urls))
            portTimes.append(try timeDownloader(urls: urls, decompress: true))
            portNoDecompressTimes.append(try timeDownloader(urls: urls, decompress: false))
        }
        let curlMedian = median(curlTimes)
        let portMedian = median(portTimes)
        let rawMedian = median(portNoDecompressTimes)
        print(String(format: "curl --parallel --parallel-max 6:             median %.1f ms  (runs: %@)", curlMedian * 1000, list(curlTimes)))
        print(String(format: "SDWebImageDownloader (decode + decompress):   median %.1f ms  (runs: %@)  = %.2f x curl",
                     portMedian * 1000, list(portTimes), portMedian / curlMedian))
        print(String(format: "SDWebImageDownloader (decode, no decompress): median %.1f ms  (runs: %@)  = %.2f x curl",
                     rawMedian * 1000, list(portNoDecompressTimes), rawMedian / curlMedian))
        print("max requests in flight at the server: \(server.maxConcurrentRequests)")

        server.resetCounters()
        let hits = try coalesce(url: server.url("/one.jpg"), requests: 100, server: server)
        print("100 requests for one URL: \(hits) reached the server")
    }

    /// Downloads every URL through a fresh downloader (6 at a time) and returns the wall time in seconds.
    static func timeDownloader(urls: [URL], decompress: Bool) throws -> Double {
        let downloader = SDWebImageDownloader(sessionConfiguration: nil)
        downloader.shouldDecompressImages = decompress
        let group = DispatchGroup()
        let failures = Counter()
        let start = DispatchTime.now()
        for url in urls {
            group.enter()
            downloader.downloadImage(with: url, options: [], progress: nil) { image, _, _, finished in
                guard finished else { return }
                if image == nil { failures.increment() }
                group.leave()
            }
        }
        group.wait()
        let elapsed = seconds(since: start)
        if failures.value > 0 { throw BenchmarkError.failed("\(failures.value) downloads failed") }
        return elapsed
    }

    /// Runs curl on every URL, 6 transfers at a time, bodies to /dev/null; returns the wall time in seconds.
    static func timeCurl(_ curl: String, urls: [URL]) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: curl)
        process.arguments = ["--silent", "--show-error", "--fail", "--parallel", "--parallel-max", "6", "--config", "-"]
        let input = Pipe()
        process.standardInput = input
        let config = urls.map { "url = \"\($0.absoluteString)\"\noutput = \"/dev/null\"\n" }.joined()
        let start = DispatchTime.now()
        try process.run()
        input.fileHandleForWriting.write(Data(config.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        let elapsed = seconds(since: start)
        guard process.terminationStatus == 0 else { throw BenchmarkError.failed("curl exited with \(process.terminationStatus)") }
        return elapsed
    }

    /// Asks for `url` `requests` times while it downloads; returns how many requests the server received.
    static func coalesce(url: URL, requests: Int, server: SDPortTestServer) throws -> Int {
        let downloader = SDWebImageDownloader(sessionConfiguration: nil)
        let group = DispatchGroup()
        let images = Counter()
        for _ in 0..<requests {
            group.enter()
            downloader.downloadImage(with: url, options: [], progress: nil) { image, _, _, finished in
                guard finished else { return }
                if image != nil { images.increment() }
                group.leave()
            }
        }
        group.wait()
        if images.value != requests { throw BenchmarkError.failed("only \(images.value) of \(requests) callers got the image") }
        return server.hits(url.path)
    }

    /// A noisy RGB JPEG of roughly `targetBytes` (noise keeps JPEG from compressing it much).
    static func makeJPEG(targetBytes: Int) throws -> Data {
        var side = 200
        while true {
            let data = try encodeNoise(width: side, height: side)
            if data.count >= targetBytes || side > 2000 { return data }
            side += 10
        }
    }

    static func encodeNoise(width: Int, height: Int) throws -> Data {
        var generator = SplitMix(seed: 42)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for index in pixels.indices { pixels[index] = UInt8(truncatingIfNeeded: generator.next()) }
        guard let handle = tjInitCompress() else { throw BenchmarkError.failed("tjInitCompress") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let result = pixels.withUnsafeBufferPointer { buffer in
            tjCompress2(handle, buffer.baseAddress, Int32(width), 0, Int32(height), Int32(TJPF_RGB.rawValue),
                        &output, &size, Int32(TJSAMP_420.rawValue), 90, 0)
        }
        defer { tjFree(output) }
        guard result == 0, let output else { throw BenchmarkError.failed("tjCompress2 failed") }
        return Data(bytes: output, count: Int(size))
    }

    static func findCurl() -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/curl" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    static func list(_ values: [Double]) -> String {
        values.map { String(format: "%.0f", $0 * 1000) }.joined(separator: ", ")
    }

    enum BenchmarkError: Error { case failed(String) }

    /// A thread-safe counter for completions arriving on background queues.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func increment() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    /// A small deterministic random generator for the payload.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
