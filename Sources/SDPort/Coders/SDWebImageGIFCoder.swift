import CGIF
import Foundation

/// Decodes GIF (every frame composited) and encodes still and animated GIF with giflib (COD-02, COD-06).
///
/// Ports `SDWebImageGIFCoder` (`SDWebImageGIFCoder.m`, 4.4.8: `decodedImageWithData:`,
/// `sd_frameDurationAtIndex:source:`, `encodedDataWithImage:format:`), which uses ImageIO; here giflib reads
/// from memory (`DGifOpen` with a read callback). 5.x moves GIF to `SDImageGIFCoder` (an
/// `SDImageIOAnimatedCoder` since 5.2.0) with the same duration rule.
///
/// Decoding follows what browsers do, as the original's ImageIO does:
/// - every frame is drawn onto a canvas of the logical screen size and snapshotted, honouring the disposal
///   modes (1 leave, 2 clear the frame's area to transparent, 3 restore what was there before), the
///   transparent colour index, local and global colour maps and interlaced frames;
/// - a delay of 0 or 1 hundredths of a second (under 11 ms) is shown for 100 ms, as Firefox and WebKit do;
/// - the loop count comes from the NETSCAPE2.0 application extension; without one it is 1, as 4.4.8 reads it on
///   iOS, tvOS and watchOS (macOS leaves the GIF to `NSBitmapImageRep`);
/// - one frame gives a still image (the original's `initWithData:` path, not taken on macOS), more an animated one;
/// - a file cut short keeps the frames that arrived complete; with none it is `truncated`.
/// - The canvas size times the frame count is checked against `SDWebImageCoderHelper.maxDecodedPixelCount`
///   before anything is drawn: the frames are counted first without decoding them (`checkFrameBudget`), and an
///   animation over the limit is `animationTooLarge` (REL-01); frame descriptors never allocate more than one row.
///
/// Encoding is lossy when a frame has more than 256 colours (255 with transparency): giflib's median-cut
/// quantizer (`GifQuantizeBuffer`) makes a local palette per frame. Frames with few colours (GIFs decoded by
/// this coder, flat graphics) keep their exact colours. Pixels with alpha under 128 become the transparent
/// index; every frame covers the whole canvas, with disposal 2 when any frame has transparency.
/// `decompressedImage` returns the image untouched: GIFs are not force-decoded, as in the original's GIF coder.
///
/// Not in the default coder list, as in 4.4.8: there `SDWebImageImageIOCoder` decodes a GIF to its first frame
/// (still, on iOS, tvOS and watchOS; on macOS NSImage keeps the frames), and a program that wants an animated
/// `UIImage` adds this coder (COD-01, COD-10); on iOS the GIF subspec's `FLAnimatedImageView` animates from the
/// data without it. The ImageIO coder uses `decodeFirstFrame(from:keepingPartialRows:)` for its
/// still GIFs.
/// At tag 4.4.8: `SDWebImage/SDWebImageGIFCoder.m:33` (`-decodedImageWithData:`), `SDWebImage/SDWebImageGIFCoder.m:93` (`-sd_frameDurationAtIndex:source:`), `SDWebImage/SDWebImageGIFCoder.m:137` (`-encodedDataWithImage:format:`).
/// At tag 5.21.5: `SDWebImage/Core/SDImageIOAnimatedCoder.m:416` (`+frameDurationAtIndex:source:`).
public final class SDWebImageGIFCoder: SDWebImageCoder, Sendable {
    /// Ports `+sharedCoder`.
    public static let shared = SDWebImageGIFCoder()

    /// The coder has no state, so one instance serves every thread.
    public init() {}

    // MARK: Decoding

    public func canDecode(from data: Data?) -> Bool {
        Data.sd_imageFormat(forImageData: data) == .gif
    }

    /// Ports the duration rule of `-sd_frameDurationAtIndex:source:`: a delay in hundredths of a second, or
    /// 100 ms for delays under 11 ms (0 and 1).
    public static func frameDuration(delayHundredths: Int) -> TimeInterval {
        let seconds = Double(delayHundredths) / 100
        return seconds < 0.011 ? 0.1 : seconds
    }

    public func decodeImage(from data: Data) throws -> UIImage {
        try decode(data, frameLimit: nil, keepingPartialRows: false)
    }

    /// The first frame only, as a still image: what 4.4.8's ImageIO coder gives for a GIF on iOS, tvOS and
    /// watchOS, where `-[UIImage initWithData:]` keeps one frame (COD-10). With
    /// `keepingPartialRows`, a first frame cut short keeps the rows that arrived (the rest transparent): an
    /// incremental decode of a GIF that is still downloading.
    public func decodeFirstFrame(from data: Data, keepingPartialRows: Bool = false) throws -> UIImage {
        try decode(data, frameLimit: 1, keepingPartialRows: keepingPartialRows)
    }

    private func decode(_ data: Data, frameLimit: Int?, keepingPartialRows: Bool) throws -> UIImage {
        guard !data.isEmpty else { throw SDWebImageCoderError.emptyData }
        return try data.withUnsafeBytes { raw in
            // An animation over the pixel limit is refused before any frame is drawn (REL-01).
            if frameLimit == nil { try Self.checkFrameBudget(of: raw, reader: gifReadFromMemory) }
            var source = MemorySource(base: raw.bindMemory(to: UInt8.self).baseAddress!, count: raw.count, offset: 0)
            return try withUnsafeMutablePointer(to: &source) { sourcePointer in
                var openError: Int32 = 0
                guard let gif = DGifOpen(sourcePointer, gifReadFromMemory, &openError) else {
                    throw Self.decodeError(openError, source: sourcePointer.pointee)
                }
                defer {
                    var closeError: Int32 = 0
                    DGifCloseFile(gif, &closeError)
                }
                return try FrameCompositor(gif: gif, frameLimit: frameLimit, keepsPartialRows: keepingPartialRows)
                    .decode(source: sourcePointer)
            }
        }
    }

    static func decodeError(_ code: Int32, source: MemorySource) -> SDWebImageCoderError {
        if code == D_GIF_ERR_READ_FAILED || source.offset >= source.count {
            return .truncated(.gif)
        }
        let message = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
        return .corrupt(.gif, reason: message)
    }

    // MARK: Force decoding

    /// GIFs are not force-decoded (the original's GIF coder returns the image as is).
    public func decompressedImage(with image: UIImage?, data: inout Data?, options: SDWebImageCoderOptions?) -> UIImage?
    {
        image
    }

    // MARK: Encoding

    public func canEncode(to format: SDImageFormat) -> Bool {
        format == .gif
    }

    /// A still GIF for a still image; for an animated one, every frame with its delay (in hundredths of a
    /// second, rounded) and the image's `sd_imageLoopCount` in a NETSCAPE2.0 extension.
    public func encodedData(with image: UIImage?, format: SDImageFormat) -> Data? {
        guard let image, format == .gif else { return nil }
        return try? encode(image)
    }

    /// The GIF data, or an `encodeFailed` error saying why there is none.
    public func encode(_ image: UIImage) throws -> Data {
        try Self.encodeFrames(of: image)
    }
}

extension SDWebImageGIFCoder {
    /// The bytes giflib reads from, and how far it got.
    struct MemorySource {
        let base: UnsafePointer<UInt8>
        let count: Int
        var offset: Int
    }
}

/// giflib's read callback: copies the next bytes of the `MemorySource` in `UserData`.
private let gifReadFromMemory: InputFunc = { gif, buffer, length in
    guard let gif, let buffer, let user = gif.pointee.UserData, length > 0 else { return 0 }
    let source = user.assumingMemoryBound(to: SDWebImageGIFCoder.MemorySource.self)
    let n = min(Int(length), source.pointee.count - source.pointee.offset)
    guard n > 0 else { return 0 }
    buffer.update(from: source.pointee.base + source.pointee.offset, count: n)
    source.pointee.offset += n
    return Int32(n)
}

extension SDWebImageGIFCoder {
    /// Reads a GIF record by record and composites its frames (see `SDWebImageGIFCoder`).
    private struct FrameCompositor {
        let gif: UnsafeMutablePointer<GifFileType>
        /// Stop after this many frames (nil: all).
        let frameLimit: Int?
        /// Keep a frame whose rows stop part way (incremental decoding) instead of failing or dropping it.
        let keepsPartialRows: Bool

        func decode(source: UnsafeMutablePointer<MemorySource>) throws -> UIImage {
            var canvasWidth = Int(gif.pointee.SWidth)
            var canvasHeight = Int(gif.pointee.SHeight)
            var canvas: [UInt8] = []
            var frames: [UIImage] = []
            var durations: [TimeInterval] = []
            var loopCount: Int?
            var control = GraphicsControlBlock(
                DisposalMode: DISPOSAL_UNSPECIFIED, UserInputFlag: false, DelayTime: 0,
                TransparentColor: NO_TRANSPARENT_COLOR)
            var sawControl = false

            records: while true {
                var record = UNDEFINED_RECORD_TYPE
                guard DGifGetRecordType(gif, &record) == GIF_OK else {
                    if frames.isEmpty {
                        throw SDWebImageGIFCoder.decodeError(gif.pointee.Error, source: source.pointee)
                    }
                    break records  // no trailer or cut short after a complete frame: keep what arrived
                }
                switch record {
                case IMAGE_DESC_RECORD_TYPE:
                    guard DGifGetImageDesc(gif) == GIF_OK else {
                        if frames.isEmpty {
                            throw SDWebImageGIFCoder.decodeError(gif.pointee.Error, source: source.pointee)
                        }
                        break records
                    }
                    let desc = gif.pointee.Image
                    if canvas.isEmpty {
                        if canvasWidth <= 0 || canvasHeight <= 0 {  // no logical screen size: use the first frame's
                            canvasWidth = Int(desc.Left + desc.Width)
                            canvasHeight = Int(desc.Top + desc.Height)
                        }
                        guard canvasWidth > 0, canvasHeight > 0 else {
                            throw SDWebImageCoderError.corrupt(.gif, reason: "the image has no pixels")
                        }
                        try SDWebImageCoderHelper.checkPixelBudget(width: canvasWidth, height: canvasHeight)
                        canvas = [UInt8](repeating: 0, count: canvasWidth * canvasHeight * 4)
                    }
                    try SDWebImageCoderHelper.checkPixelBudget(
                        width: canvasWidth, height: canvasHeight, frames: frames.count + 1)
                    let disposal = sawControl ? control.DisposalMode : DISPOSAL_UNSPECIFIED
                    let previous = disposal == DISPOSE_PREVIOUS ? canvas : nil
                    var complete = true
                    do {
                        complete = try drawFrame(
                            desc, transparent: sawControl ? Int(control.TransparentColor) : -1,
                            onto: &canvas, width: canvasWidth, height: canvasHeight)
                    } catch {
                        if frames.isEmpty { throw error }
                        break records
                    }
                    frames.append(
                        UIImage(
                            pixelWidth: canvasWidth, pixelHeight: canvasHeight, pixels: canvas,
                            hasAlpha: SDWebImageCoderHelper.containsTransparency(canvas), format: .gif))
                    durations.append(
                        SDWebImageGIFCoder.frameDuration(delayHundredths: sawControl ? Int(control.DelayTime) : 10))
                    if !complete { break records }
                    if let frameLimit, frames.count >= frameLimit { break records }
                    switch disposal {
                    case DISPOSE_BACKGROUND:
                        Self.clear(desc, in: &canvas, width: canvasWidth, height: canvasHeight)
                    case DISPOSE_PREVIOUS:
                        if let previous { canvas = previous }
                    default:
                        break
                    }
                    sawControl = false
                case EXTENSION_RECORD_TYPE:
                    var code: Int32 = 0
                    var block: UnsafeMutablePointer<GifByteType>?
                    guard DGifGetExtension(gif, &code, &block) == GIF_OK else {
                        if frames.isEmpty {
                            throw SDWebImageGIFCoder.decodeError(gif.pointee.Error, source: source.pointee)
                        }
                        break records
                    }
                    if code == GRAPHICS_EXT_FUNC_CODE, let block, block[0] >= 4 {
                        if DGifExtensionToGCB(Int(block[0]), block + 1, &control) == GIF_OK { sawControl = true }
                    }
                    var isNetscape = false
                    if code == APPLICATION_EXT_FUNC_CODE, let block, block[0] == 11 {
                        let name = String(decoding: UnsafeBufferPointer(start: block + 1, count: 11), as: UTF8.self)
                        isNetscape = name == "NETSCAPE2.0" || name == "ANIMEXTS1.0"
                    }
                    while block != nil {
                        guard DGifGetExtensionNext(gif, &block) == GIF_OK else {
                            if frames.isEmpty {
                                throw SDWebImageGIFCoder.decodeError(gif.pointee.Error, source: source.pointee)
                            }
                            break records
                        }
                        if isNetscape, let sub = block, sub[0] >= 3, sub[1] == 1 {
                            loopCount = Int(sub[2]) | Int(sub[3]) << 8
                        }
                    }
                case TERMINATE_RECORD_TYPE:
                    break records
                default:
                    continue
                }
            }
            guard let first = frames.first else {
                throw SDWebImageCoderError.corrupt(.gif, reason: "no image in the file")
            }
            if frames.count == 1 { return first }
            let timed = zip(frames, durations).map { SDWebImageFrame(image: $0, duration: $1) }
            try SDWebImageCoderHelper.checkAnimationEntries(timed)
            return SDWebImageCoderHelper.animatedImage(with: timed, loopCount: loopCount ?? 1, format: .gif)!
        }

        /// Decodes one frame's rows (in interlaced order when it is interlaced) and draws its opaque pixels.
        /// Returns false when the data ended part way and `keepsPartialRows` kept the rows drawn so far.
        private func drawFrame(
            _ desc: GifImageDesc, transparent: Int, onto canvas: inout [UInt8], width: Int, height: Int
        ) throws -> Bool {
            let frameWidth = Int(desc.Width)
            let frameHeight = Int(desc.Height)
            guard let colorMap = desc.ColorMap ?? gif.pointee.SColorMap else {
                throw SDWebImageCoderError.corrupt(.gif, reason: "a frame has no colour map")
            }
            guard frameWidth > 0, frameHeight > 0 else {
                try skipImageData()
                return true
            }
            let colors = colorMap.pointee.Colors!
            let colorCount = Int(colorMap.pointee.ColorCount)
            var line = [GifPixelType](repeating: 0, count: frameWidth)
            let rowOrder: [Int]
            if desc.Interlace {
                rowOrder =
                    Array(stride(from: 0, to: frameHeight, by: 8)) + Array(stride(from: 4, to: frameHeight, by: 8))
                    + Array(stride(from: 2, to: frameHeight, by: 4)) + Array(stride(from: 1, to: frameHeight, by: 2))
            } else {
                rowOrder = Array(0..<frameHeight)
            }
            let left = Int(desc.Left)
            let top = Int(desc.Top)
            return try canvas.withUnsafeMutableBufferPointer { pixels -> Bool in
                for y in rowOrder {
                    guard DGifGetLine(gif, &line, Int32(frameWidth)) == GIF_OK else {
                        if keepsPartialRows { return false }
                        throw SDWebImageCoderError.truncated(.gif)
                    }
                    let cy = top + y
                    guard cy >= 0, cy < height else { continue }
                    for x in 0..<frameWidth {
                        let index = Int(line[x])
                        let cx = left + x
                        guard index != transparent, index < colorCount, cx >= 0, cx < width else { continue }
                        let color = colors[index]
                        let p = (cy * width + cx) * 4
                        pixels[p] = color.Red
                        pixels[p + 1] = color.Green
                        pixels[p + 2] = color.Blue
                        pixels[p + 3] = 255
                    }
                }
                return true
            }
        }

        /// Reads past the compressed data of an empty frame.
        private func skipImageData() throws {
            var codeSize: Int32 = 0
            var block: UnsafeMutablePointer<GifByteType>?
            guard DGifGetCode(gif, &codeSize, &block) == GIF_OK else { throw SDWebImageCoderError.truncated(.gif) }
            while block != nil {
                guard DGifGetCodeNext(gif, &block) == GIF_OK else { throw SDWebImageCoderError.truncated(.gif) }
            }
        }

        /// Disposal 2: the frame's area becomes transparent (browsers ignore the background colour).
        private static func clear(_ desc: GifImageDesc, in canvas: inout [UInt8], width: Int, height: Int) {
            let x0 = max(0, Int(desc.Left))
            let x1 = min(width, Int(desc.Left + desc.Width))
            let y0 = max(0, Int(desc.Top))
            let y1 = min(height, Int(desc.Top + desc.Height))
            guard x0 < x1, y0 < y1 else { return }
            canvas.withUnsafeMutableBufferPointer { pixels in
                for y in y0..<y1 {
                    let start = (y * width + x0) * 4
                    pixels.baseAddress!.advanced(by: start).update(repeating: 0, count: (x1 - x0) * 4)
                }
            }
        }
    }
}
