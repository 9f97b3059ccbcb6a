import Foundation
import SDPort
import SDPortTestServer

/// The FAQ answers proven through the manager and the coders, on a loopback server and a temporary cache.
extension FAQLiveProbes {
    /// FAQ-05: the same URL loaded three times: downloaded, then from memory, then (after clearMemory) from disk.
    static func cacheTypes() async throws -> String {
        try await FAQLoopback.with { loopback in
            loopback.server.route("/origin.png", .data(SampleImage.png, contentType: "image/png"))
            let first = await loopback.load("/origin.png")
            let second = await loopback.load("/origin.png")
            loopback.cache.clearMemory()
            let third = await loopback.load("/origin.png")
            let names = [first, second, third].map { result -> String in
                switch result {
                case .success(let type): return "\(type) = \(type.rawValue)"
                case .failure(let error): return "error \(error.code)"
                }
            }
            return "three loads of one URL: \(names.joined(separator: "; ")) (after clearMemory)"
        }
    }

    /// FAQ-06: a download is stored in memory and on disk; with cacheMemoryOnly only in memory.
    static func whatIsCached() async throws -> String {
        try await FAQLoopback.with { loopback in
            loopback.server.route("/both.png", .data(SampleImage.png, contentType: "image/png"))
            loopback.server.route("/memory.png", .data(SampleImage.png, contentType: "image/png"))
            _ = await loopback.load("/both.png")
            _ = await loopback.load("/memory.png", options: .cacheMemoryOnly)
            func placement(of path: String) -> String {
                let key = loopback.server.url(path).absoluteString
                let memory = loopback.cache.imageFromMemoryCache(forKey: key) != nil
                let disk = loopback.cache.diskImageDataExists(withKey: key)
                return "memory \(memory), disk \(disk)"
            }
            return
                "after a download: \(placement(of: "/both.png")); with cacheMemoryOnly: \(placement(of: "/memory.png")); "
                + "SDImageCacheConfig().shouldCacheImagesInMemory = \(SDImageCacheConfig().shouldCacheImagesInMemory)"
        }
    }

    /// FAQ-10: a String is converted, an NSNull becomes nil, nil completes at once with FileDoesNotExist.
    static func urlTypes() async throws -> String {
        try await FAQLoopback.with { loopback in
            loopback.server.route("/string.png", .data(SampleImage.png, contentType: "image/png"))
            let fromString: String = await withCheckedContinuation { continuation in
                loopback.manager.loadImage(with: loopback.server.url("/string.png").absoluteString) {
                    image, _, error, _, finished, _ in
                    guard finished else { return }
                    continuation.resume(
                        returning: image != nil
                            ? "image \(image!.pixelWidth)×\(image!.pixelHeight)"
                            : "error \((error as NSError?)?.code ?? 0)")
                }
            }
            let fromNull: Int = await withCheckedContinuation { continuation in
                loopback.manager.loadImage(withAnyURL: NSNull()) { _, _, error, _, finished, _ in
                    if finished { continuation.resume(returning: (error as NSError?)?.code ?? 0) }
                }
            }
            let fromNil: (code: Int, finished: Bool) = await withCheckedContinuation { continuation in
                loopback.manager.loadImage(with: nil as URL?) { _, _, error, _, finished, _ in
                    continuation.resume(returning: ((error as NSError?)?.code ?? 0, finished))
                }
            }
            return "loadImage(with: String) → \(fromString); withAnyURL: NSNull() → error \(fromNull); "
                + "nil → error \(fromNil.code) (NSURLErrorFileDoesNotExist = \(NSURLErrorFileDoesNotExist)), finished = \(fromNil.finished)"
        }
    }

    /// FAQ-13: a decoded opaque PNG force-decoded; an animated image left alone; the scale-down size of a large one.
    static func forceDecode() -> String {
        guard let decoded = SDWebImageCodersManager.shared.decodedImage(with: SampleImage.png),
            let forced = SDWebImageCoderHelper.decompressedImage(decoded)
        else {
            return "(the sample PNG did not decode)"
        }
        let frame = UIImage(pixelWidth: 1, pixelHeight: 1, pixels: [0, 0, 0, 255], hasAlpha: false)
        let animated = UIImage(animatedImages: [frame, frame], duration: 0.2)
        let large = SDWebImageCoderHelper.scaledDownSize(width: 5250, height: 3450)
        return "2×2 opaque PNG → \(SDWebImageCoderHelper.bitsPerComponent) bits per component, "
            + "\(forced.bytesPerRow / max(1, forced.pixelWidth)) bytes per pixel, hasAlpha = \(forced.hasAlpha), "
            + "sd_isDecoded = \(forced.sd_isDecoded); shouldDecodeImage(animated) = "
            + "\(SDWebImageCoderHelper.shouldDecodeImage(animated)); limit \(SDWebImageCoderHelper.destTotalPixels) px, "
            + "so 5250×3450 scales down to \(large.width)×\(large.height)"
    }

    /// FAQ-17: one download for simultaneous requests; a failed URL skipped until retryFailed.
    static func coalescingAndFailedURLs() async throws -> String {
        let joined = try await coalescing()
        let failed = try await FAQLoopback.with { loopback in
            // In 4.4.8 (default operation, no `shouldBlockFailedURL` delegate) a 404 ends as a cancel, which is not
            // blacklisted; bytes that are no image are blacklisted.
            loopback.server.route("/gone.png", .status(404))
            loopback.server.route("/text.png", .data(Data("not an image".utf8), contentType: "image/png"))
            var lines: [String] = []
            for path in ["/gone.png", "/text.png"] {
                var codes: [String] = []
                for options: SDWebImageOptions in [[], [], [.retryFailed]] {
                    switch await loopback.load(path, options: options) {
                    case .success: codes.append("image")
                    case .failure(let error): codes.append("\(error.code)")
                    }
                }
                lines.append(
                    "\(path) loaded three times (the third with retryFailed): errors "
                        + "\(codes.joined(separator: ", ")), server requests \(loopback.server.hits(path))")
            }
            return lines.joined(separator: "; ")
        }
        return joined + "; " + failed
    }
}
