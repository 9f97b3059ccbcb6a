import Foundation

/// Why a coder could not decode or encode: the port's clear error for bad input.
///
/// The original's coders return nil without a reason; this error carries one, in
/// `SDWebImageErrorDomain`, so completions and the command line can say what happened.
public enum SDWebImageCoderError: Error, Sendable, Equatable, CustomNSError, LocalizedError {
    /// No registered coder can decode data of this format (for example TIFF or HEIC on Linux).
    case noCoder(SDImageFormat)
    /// The data is empty.
    case emptyData
    /// The library rejected the data; `reason` is its message.
    case corrupt(SDImageFormat, reason: String)
    /// The header claims more pixels than the decoder will allocate.
    case tooLarge(width: Int, height: Int)
    /// An animation whose frames (each a full canvas once composited), with the canvases the decoder works in,
    /// come to more pixels than `limit` (`SDWebImageCoderHelper.maxDecodedPixelCount` when it was refused).
    case animationTooLarge(frames: Int, width: Int, height: Int, workingCanvases: Int, limit: Int)
    /// An animation that UIKit's one-duration-per-entry form (`SDWebImageCoderHelper.animatedImage(with:)`) would
    /// spread over more `images` entries than `limit` (`SDWebImageCoderHelper.maxAnimationEntryCount`): `frames`
    /// frames whose durations share a greatest common divisor of only `tick` milliseconds.
    case tooManyAnimationEntries(entries: Int, frames: Int, tick: Int, limit: Int)
    /// Encoding failed.
    case encodeFailed(SDImageFormat, reason: String)
    /// The data ended before any of the picture arrived (a JPEG before its first scan or first rows, a PNG before
    /// its first row, a GIF inside its first frame, any cut WebP). Data cut later decodes to what arrived (COD-13).
    case truncated(SDImageFormat)

    /// `SDWebImageErrorDomain`, the domain of every SDPort error.
    public static var errorDomain: String { SDWebImageErrorDomain }

    /// 1 no coder, 2 empty data, 3 corrupt, 4 too large (an image or an animation), 5 encoding failed, 6 truncated.
    public var errorCode: Int {
        switch self {
        case .noCoder: return 1
        case .emptyData: return 2
        case .corrupt: return 3
        case .tooLarge, .animationTooLarge, .tooManyAnimationEntries: return 4
        case .encodeFailed: return 5
        case .truncated: return 6
        }
    }

    /// The description under `NSLocalizedDescriptionKey`, so an `NSError` bridge reads the same text.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: errorDescription ?? ""] }

    /// One line saying what was wrong with the data, and in which format.
    public var errorDescription: String? {
        switch self {
        case .noCoder(let format):
            return "No coder for this format (\(format.fileExtension ?? "unknown format"))"
        case .emptyData:
            return "Image data is empty"
        case .corrupt(let format, let reason):
            return "Cannot decode \(format.fileExtension ?? "image") data: \(reason)"
        case .tooLarge(let width, let height):
            return "Image header claims \(width)×\(height) pixels, more than the decoder allows"
        case .animationTooLarge(let frames, let width, let height, let workingCanvases, let limit):
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            let (total, overflow2) = pixels.multipliedReportingOverflow(by: frames + workingCanvases)
            let frameText = frames == 1 ? "1 frame" : "\(grouped(frames)) frames"
            let canvasText =
                workingCanvases == 0
                ? ""
                : workingCanvases == 1 ? " and a working canvas" : " and \(workingCanvases) working canvases"
            let totalText = overflow || overflow2 ? "more pixels than an Int holds" : "\(grouped(total)) pixels in all"
            return "Animation needs \(frameText) of \(width)×\(height) pixels\(canvasText), \(totalText), "
                + "over the limit of \(grouped(limit)) pixels"
        case .tooManyAnimationEntries(let entries, let frames, let tick, let limit):
            return
                "Animation needs \(grouped(entries)) entries of \(tick) ms for its \(grouped(frames)) frames (each frame "
                + "repeated for its duration), over the limit of \(grouped(limit)) entries"
        case .encodeFailed(let format, let reason):
            return "Cannot encode \(format.fileExtension ?? "image"): \(reason)"
        case .truncated(let format):
            return "The \(format.fileExtension ?? "image") data ends before the image does"
        }
    }

    /// `n` with commas between groups of three digits (the same in every locale).
    private func grouped(_ n: Int) -> String {
        var digits = String(n.magnitude)
        var groups: [Substring] = []
        while digits.count > 3 {
            groups.insert(digits.suffix(3), at: 0)
            digits.removeLast(3)
        }
        groups.insert(Substring(digits), at: 0)
        return (n < 0 ? "-" : "") + groups.joined(separator: ",")
    }
}
