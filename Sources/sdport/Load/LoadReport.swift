import Foundation
import SDPort

/// What one load produced: where the image came from, what it is, where it is cached, how long it took.
struct LoadReport: Sendable {
    let url: URL?
    let origin: SDImageCacheType
    let format: SDImageFormat
    let width: Int
    let height: Int
    let frames: Int
    /// The coder that decoded the bytes (the shared coders' choice for them); nil for a memory hit, which
    /// decodes nothing.
    let coder: String?
    let cacheFile: String?
    let milliseconds: Double

    init(result: SDWebImageLoadResult, url: URL?, cacheFile: String?, milliseconds: Double) {
        self.url = result.url ?? url
        origin = result.cacheType
        let imageFormat = result.image.sd_imageFormat
        format = imageFormat != .undefined ? imageFormat : Data.sd_imageFormat(forImageData: result.data)
        width = result.image.pixelWidth
        height = result.image.pixelHeight
        frames = SDWebImageCoderHelper.frames(from: result.image)?.count ?? 1
        coder =
            result.cacheType == .memory
            ? nil
            : result.data
                .flatMap { SDWebImageCodersManager.shared.coder(forDecoding: $0) }
                .map { String(describing: type(of: $0)) }
        self.cacheFile = cacheFile
        self.milliseconds = milliseconds
    }

    /// "download", "disk" or "memory".
    var originName: String { LoadReport.originName(origin) }

    static func originName(_ type: SDImageCacheType) -> String {
        switch type {
        case .none: return "download"
        case .disk: return "disk"
        case .memory: return "memory"
        }
    }

    var formatName: String { format.fileExtension ?? "undefined" }

    /// The coder's name without the `SDWebImage` prefix ("ImageIOCoder"), or "-" for a memory hit.
    var shortCoderName: String {
        guard let coder else { return "-" }
        return coder.hasPrefix("SDWebImage") ? String(coder.dropFirst("SDWebImage".count)) : coder
    }

    /// The `--json` object.
    var json: String {
        JSONLine.encode([
            "url": url.map { .string($0.absoluteString) } ?? .null,
            "origin": .string(originName),
            "format": .string(formatName),
            "width": .int(width),
            "height": .int(height),
            "frames": .int(frames),
            "coder": coder.map { .string($0) } ?? .null,
            "cacheFile": cacheFile.map { .string($0) } ?? .null,
        ])
    }

    /// The text lines `sdport load` prints.
    var lines: [String] {
        [
            "url:        \(url?.absoluteString ?? "-")",
            "origin:     \(originName) (SDImageCacheType.\(origin == .none ? "none" : originName) = \(origin.rawValue))",
            "format:     \(formatName)",
            "pixels:     \(width)×\(height), \(frames) frame\(frames == 1 ? "" : "s")",
            "coder:      \(coder ?? "none (a memory hit decodes nothing)")",
            "cacheFile:  \(cacheFile ?? "(not on disk)")",
            "time:       \(Milliseconds.text(milliseconds))",
        ]
    }
}
