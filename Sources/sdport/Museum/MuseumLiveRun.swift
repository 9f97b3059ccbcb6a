import Foundation
import SDPort
import SDPortTestServer

/// Runs the unpatched side of an exhibit for `sdport museum N`: in-process, on the port this binary was built from,
/// where the exhibit needs no test-only helper (MUS-03, 11, 15, 16, 18, 19); otherwise its unpatched tests through
/// `swift test --filter` in the checkout. Either way the port is the one as it is: a fix exhibit shows 4.4.8's bug,
/// a regress exhibit the port's fix.
enum MuseumLiveRun {
    static func run(_ exhibit: MuseumExhibit, root: URL, scratchPath: String?) async throws -> MuseumLiveReport {
        switch exhibit.id {
        case "MUS-03": return try await cancelAllDownloads()
        case "MUS-11": return try syncQueryPastAQueuedWrite()
        case "MUS-15": return try animatedCost()
        case "MUS-16": return try truncatedDurations()
        case "MUS-18": return await nilURL()
        case "MUS-19": return nulFileName()
        default: return try MuseumTestRun.run(exhibit, root: root, scratchPath: scratchPath)
        }
    }

    private static func report(_ lines: [String], _ asExpected: Bool) -> MuseumLiveReport {
        MuseumLiveReport(mode: "in-process", command: nil, lines: lines, asExpected: asExpected)
    }

    /// MUS-03: a load of a stalled URL, then `cancelAllDownloads()`; the caller is never answered.
    private static func cancelAllDownloads() async throws -> MuseumLiveReport {
        let loopback = try FAQLoopback()
        defer {
            loopback.downloader.invalidateSessionAndCancel(true)
            loopback.server.stop()
            loopback.directory.remove()
        }
        loopback.server.route("/stall.png", .stall)
        let url = loopback.server.url("/stall.png")
        let calls = LockedValue(0)
        let operation = loopback.manager.loadImage(with: url) { _, _, _, _, _, _ in calls.withValue { $0 += 1 } }
        var lines = ["manager.loadImage(\(url.path)): the server stalls the response"]
        guard try await poll({ loopback.server.hits("/stall.png") == 1 }) else {
            return report(lines + ["the request never reached the server"], false)
        }
        lines.append("server hits: 1 (the request is on the wire); downloader.cancelAllDownloads()")
        loopback.downloader.cancelAllDownloads()
        _ = try await poll({ loopback.downloader.runningOperation(for: url) == nil })
        await drainMainQueue()
        await drainMainQueue()
        let count = calls.withValue { $0 }
        lines.append("the download operation has finished; completion calls: \(count)")
        lines.append(
            "manager.isRunning: \(loopback.manager.isRunning), runningOperations: \(loopback.manager.runningOperations.count), handle cancelled: \(operation.isCancelled)"
        )
        return report(lines, count == 0 && loopback.manager.isRunning)
    }

    /// MUS-11: a store queued behind a blocked io queue, then a `.queryDiskSync` query.
    private static func syncQueryPastAQueuedWrite() throws -> MuseumLiveReport {
        let directory = try TemporaryCacheDirectory.make(prefix: "sdport-museum")
        defer { directory.remove() }
        let cache = SDImageCache(namespace: "museum", diskCacheDirectory: directory.path)
        cache.config.shouldCacheImagesInMemory = false
        let image = UIImage(
            pixelWidth: 2, pixelHeight: 2, pixels: [UInt8](repeating: 50, count: 16), hasAlpha: false, format: .png)
        let data = SDWebImageCodersManager.shared.encodedData(with: image, format: .png)
        let gate = DispatchSemaphore(value: 0)
        cache.ioQueue.async { gate.wait() }
        cache.store(image, imageData: data, forKey: "k", toDisk: true, completion: nil)
        func query() -> SDImageCacheType? {
            let answer = LockedValue<SDImageCacheType?>(nil)
            _ = cache.queryCacheOperation(forKey: "k", options: .queryDiskSync) { _, _, type in
                answer.withValue { $0 = type }
            }
            return answer.withValue { $0 }
        }
        let first = query()
        gate.signal()
        cache.ioQueue.sync {}
        let second = query()
        return report(
            [
                "io queue blocked; store(k, toDisk: true) queued behind it",
                "queryCacheOperation(k, .queryDiskSync) answered before returning: \(describe(first))",
                "io queue released, the write ran; the same query now: \(describe(second))",
            ],
            first == SDImageCacheType.none && second == .disk)
    }

    /// MUS-15: the memory cost of a two-frame animation whose long frame is repeated ten times.
    private static func animatedCost() throws -> MuseumLiveReport {
        func frame(_ value: UInt8) -> UIImage {
            UIImage(pixelWidth: 10, pixelHeight: 10, pixels: [UInt8](repeating: value, count: 400), hasAlpha: false)
        }
        guard
            let image = SDWebImageCoderHelper.animatedImage(with: [
                SDWebImageFrame(image: frame(1), duration: 1.0),
                SDWebImageFrame(image: frame(2), duration: 0.1),
            ])
        else {
            return report(["no animated image"], false)
        }
        let distinct = Set((image.images ?? []).map(ObjectIdentifier.init)).count
        return report(
            [
                "frames: 10×10 for 1 s and 10×10 for 0.1 s → images.count \(image.images?.count ?? 0), distinct \(distinct)",
                "sd_memoryCost: \(image.sd_memoryCost) (pixels × entries; bytes of distinct frames would be \(distinct * 400))",
            ],
            image.sd_memoryCost == 1100)
    }

    /// MUS-16: totals summed from truncated milliseconds.
    private static func truncatedDurations() throws -> MuseumLiveReport {
        func pixel(_ value: UInt8) -> UIImage {
            UIImage(pixelWidth: 1, pixelHeight: 1, pixels: [value, 0, 0, 255], hasAlpha: false)
        }
        let gif = SDWebImageCoderHelper.animatedImage(with: [
            SDWebImageFrame(image: pixel(1), duration: SDWebImageGIFCoder.frameDuration(delayHundredths: 201)),
            SDWebImageFrame(image: pixel(2), duration: 0.5),
        ])
        let floats = SDWebImageCoderHelper.animatedImage(
            with: [SDWebImageFrame(image: pixel(1), duration: Double(Float(1.0)))]
                + (0..<3).map { SDWebImageFrame(image: pixel(UInt8($0 + 2)), duration: Double(Float(0.04))) })
        let lines = [
            "GIF delays 2.01 s + 0.5 s → duration \(gif?.duration ?? 0) s, \(gif?.images?.count ?? 0) entries (exact: 2.51 s, 251 entries)",
            "4.4.8's float delays 1 s + 3 × 0.04 s → duration \(floats?.duration ?? 0) s, \(floats?.images?.count ?? 0) entries (exact: 1.12 s, 28 entries)",
        ]
        return report(lines, abs((gif?.duration ?? 0) - 2.509) < 1e-9 && floats?.images?.count == 1117)
    }

    /// MUS-18: the downloader with a nil URL.
    private static func nilURL() async -> MuseumLiveReport {
        let downloader = SDWebImageDownloader(sessionConfiguration: nil)
        defer { downloader.invalidateSessionAndCancel(true) }
        let calls = LockedValue<[String]>([])
        let token = downloader.downloadImage(with: nil, options: [], progress: nil) { image, _, error, finished in
            calls.withValue {
                $0.append(
                    "completed(image: \(image == nil ? "nil" : "set"), error: \(error.map { "\($0)" } ?? "nil"), finished: \(finished))"
                )
            }
        }
        await drainMainQueue()
        let recorded = calls.withValue { $0 }
        return report(
            ["downloadImage(with: nil) returned \(token == nil ? "nil" : "a token")"] + recorded
                + ["calls in all: \(recorded.count); a wrapper waiting for finished == true would wait forever"],
            recorded == ["completed(image: nil, error: nil, finished: false)"])
    }

    /// MUS-19: the cache file name of a URL whose extension ends with %00.
    private static func nulFileName() -> MuseumLiveReport {
        let key = "http://h/a.png%00"
        let name = SDImageCache.cachedFileName(forKey: key)
        let shown = name.unicodeScalars.map { $0 == "\0" ? "\\0" : String($0) }.joined()
        return report(
            [
                "URL(string: \"\(key)\").pathExtension: \(URL(string: key).map { $0.pathExtension.debugDescription } ?? "nil")",
                "SDImageCache.cachedFileName(forKey:): \(shown)",
            ],
            !name.unicodeScalars.contains("\0") && name.hasSuffix(".png"))
    }

    private static func describe(_ type: SDImageCacheType?) -> String {
        switch type {
        case nil: return "no answer"
        case .some(.none): return "miss (cache type none)"
        case .some(.disk): return "hit (disk)"
        case .some(.memory): return "hit (memory)"
        case .some(let other): return "\(other)"
        }
    }

    /// Waits until `condition` holds, checking every 2 ms for up to 10 s.
    private static func poll(_ condition: () -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            if Date() > deadline { return false }
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        return true
    }

    /// Lets every block queued on the main queue so far run.
    private static func drainMainQueue() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async { continuation.resume() }
        }
    }
}
