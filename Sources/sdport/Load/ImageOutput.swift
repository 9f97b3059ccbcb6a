import Foundation
import SDPort

/// Writes a loaded image for `sdport load`: `--output FILE` in the format its extension names (`.gif` and `.webp`
/// keep every frame of an animation, `.png` and `.jpg` hold one), `--frame N` one frame of an animation (1 is the
/// first), `--contact-sheet FILE.png` every frame side by side in one PNG. Encoding goes through the port's own
/// coders (the GIF and WebP coders write animations; the coders manager writes stills).
enum ImageOutput {
    /// Writes `image` (or its frame `frame`, 1-based) to `path`; returns a line describing what was written.
    static func write(_ image: UIImage, to path: String, frame: Int?) throws -> String {
        let format = SDImageFormat(fileExtension: (path as NSString).pathExtension)
        // The animation's frames (a run of one image repeated is one frame, as 4.4.8's framesFromAnimatedImage:
        // does under UIKit and watchOS).
        let frames = SDWebImageCoderHelper.frames(from: image)?.map(\.image) ?? [image]
        var subject = image
        if let frame {
            guard (1...frames.count).contains(frame) else {
                throw SDPortFailure(
                    .usage,
                    "--frame \(frame): the image has \(frames.count) frame\(frames.count == 1 ? "" : "s") (1 to \(frames.count))"
                )
            }
            subject = frames[frame - 1]
        }
        let data: Data?
        switch format {
        case .gif:
            data = try? SDWebImageGIFCoder.shared.encode(subject)
        case .webp:
            data = SDWebImageWebPCoder.shared.encodedData(with: subject, format: .webp)
        case .png, .jpeg:
            if subject.images != nil {
                throw SDPortFailure(
                    .usage,
                    "\((path as NSString).lastPathComponent) holds one frame and the image has "
                        + "\(frames.count): write .gif or .webp for the animation, --frame N for one frame, or --contact-sheet FILE.png"
                )
            }
            data = SDWebImageCodersManager.shared.encodedData(with: subject, format: format)
        default:
            throw SDPortFailure(.usage, "--output \(path): give the file a .png, .jpg, .gif or .webp extension")
        }
        guard let data else {
            throw SDPortFailure(
                .outputUnwritable, "cannot encode the image as \(format.fileExtension ?? "?") for \(path)")
        }
        try save(data, to: path)
        let written = SDWebImageCoderHelper.frames(from: subject)?.count ?? 1
        let what = written > 1 ? "\(written) frames, " : (frame.map { "frame \($0) of \(frames.count), " } ?? "")
        return
            "wrote \(path) (\(what)\(subject.pixelWidth)×\(subject.pixelHeight), \(ByteCount.text(UInt64(data.count))))"
    }

    /// Writes every frame side by side in one PNG (a still image is written as it is).
    static func writeContactSheet(_ image: UIImage, to path: String) throws -> String {
        let sheet = ContactSheet.make(from: image)
        guard let data = SDWebImageCodersManager.shared.encodedData(with: sheet, format: .png) else {
            throw SDPortFailure(.outputUnwritable, "cannot encode the image as PNG for \(path)")
        }
        try save(data, to: path)
        let frames = SDWebImageCoderHelper.frames(from: image)?.count ?? 1
        let what = frames > 1 ? "contact sheet of \(frames) frames, " : ""
        return "wrote \(path) (\(what)\(sheet.pixelWidth)×\(sheet.pixelHeight), \(ByteCount.text(UInt64(data.count))))"
    }

    private static func save(_ data: Data, to path: String) throws {
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw SDPortFailure(.outputUnwritable, "cannot write \(path): \(CacheFactory.reason(of: error))")
        }
    }
}
