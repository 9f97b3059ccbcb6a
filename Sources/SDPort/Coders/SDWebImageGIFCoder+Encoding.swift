import CGIF
import Foundation

/// GIF encoding with giflib's low-level writer (`EGifOpen` with a write callback into memory).
extension SDWebImageGIFCoder {
    /// Collects what giflib writes.
    final class OutputBuffer {
        var data = Data()
    }

    /// One frame turned into palette indices.
    struct IndexedFrame {
        var indices: [GifPixelType]
        /// Padded to a power of two, as GIF colour tables must be.
        var colors: [GifColorType]
        var transparentIndex: Int?
    }

    static func encodeFrames(of image: UIImage) throws -> Data {
        // No frames (a still image, or an animated one of a single entry, which `frames(from:)` gives none of):
        // the image itself, as 4.4.8's `frames.count == 0` branch encodes it.
        var frames = SDWebImageCoderHelper.frames(from: image) ?? []
        if frames.isEmpty { frames = [SDWebImageFrame(image: image, duration: 0)] }
        let width = image.pixelWidth
        let height = image.pixelHeight
        guard width > 0, height > 0, width <= 65535, height <= 65535 else {
            throw SDWebImageCoderError.encodeFailed(.gif, reason: "GIF sides must be 1...65535 pixels")
        }
        let indexed = try frames.map { frame -> IndexedFrame in
            guard frame.image.pixelWidth == width, frame.image.pixelHeight == height else {
                throw SDWebImageCoderError.encodeFailed(.gif, reason: "frames of different sizes")
            }
            return try palettize(frame.image)
        }
        let animated = image.images != nil
        // Full-canvas frames: a frame with holes must not show the previous one through them.
        let disposal = indexed.contains { $0.transparentIndex != nil } ? DISPOSE_BACKGROUND : DISPOSE_DO_NOT

        let output = OutputBuffer()
        let outputReference = Unmanaged.passRetained(output)
        defer { outputReference.release() }
        var errorCode: Int32 = 0
        guard let gif = EGifOpen(outputReference.toOpaque(), gifWriteToMemory, &errorCode) else {
            throw encodeError(errorCode)
        }
        var closed = false
        defer {
            if !closed { EGifCloseFile(gif, &errorCode) }
        }
        func check(_ status: Int32) throws {
            if status != GIF_OK { throw encodeError(gif.pointee.Error) }
        }
        EGifSetGifVersion(gif, true)
        try check(EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, nil))
        if animated {
            let loops = UInt16(clamping: image.sd_imageLoopCount)
            try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE))
            try check(EGifPutExtensionBlock(gif, 11, Array("NETSCAPE2.0".utf8)))
            try check(EGifPutExtensionBlock(gif, 3, [1, UInt8(loops & 0xFF), UInt8(loops >> 8)]))
            try check(EGifPutExtensionTrailer(gif))
        }
        for (frame, duration) in zip(indexed, frames.map(\.duration)) {
            if animated || frame.transparentIndex != nil {
                var control = GraphicsControlBlock(
                    DisposalMode: animated ? disposal : DISPOSAL_UNSPECIFIED, UserInputFlag: false,
                    DelayTime: Int32(clamping: Int((duration * 100).rounded())),
                    TransparentColor: Int32(frame.transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
                var extensionBytes = [GifByteType](repeating: 0, count: 4)
                let length = EGifGCBToExtension(&control, &extensionBytes)
                try check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes))
            }
            guard let colorMap = GifMakeMapObject(Int32(frame.colors.count), frame.colors) else {
                throw SDWebImageCoderError.encodeFailed(.gif, reason: "cannot make a colour map")
            }
            defer { GifFreeMapObject(colorMap) }
            try check(EGifPutImageDesc(gif, 0, 0, Int32(width), Int32(height), false, colorMap))
            var indices = frame.indices
            try indices.withUnsafeMutableBufferPointer { buffer in
                for y in 0..<height {
                    try check(EGifPutLine(gif, buffer.baseAddress! + y * width, Int32(width)))
                }
            }
        }
        closed = true
        guard EGifCloseFile(gif, &errorCode) == GIF_OK else { throw encodeError(errorCode) }
        return output.data
    }

    /// Palette indices for one frame: its own colours when they fit in the table, otherwise giflib's
    /// median-cut quantizer. Pixels with alpha under 128 take the last index, marked transparent.
    static func palettize(_ image: UIImage) throws -> IndexedFrame {
        let width = image.pixelWidth
        let height = image.pixelHeight
        let count = width * height
        var indices = [GifPixelType](repeating: 0, count: count)
        var hasTransparency = false
        var palette: [UInt32: GifPixelType] = [:]
        var colors: [GifColorType] = []
        var exact = true
        image.pixels.withUnsafeBufferPointer { src in
            for y in 0..<height {
                var p = y * image.bytesPerRow
                for x in 0..<width {
                    defer { p += 4 }
                    if src[p + 3] < 128 {
                        hasTransparency = true
                        continue
                    }
                    guard exact else { continue }
                    let key = UInt32(src[p]) << 16 | UInt32(src[p + 1]) << 8 | UInt32(src[p + 2])
                    if let index = palette[key] {
                        indices[y * width + x] = index
                    } else if colors.count < 255 {
                        palette[key] = GifPixelType(colors.count)
                        indices[y * width + x] = GifPixelType(colors.count)
                        colors.append(GifColorType(Red: src[p], Green: src[p + 1], Blue: src[p + 2]))
                    } else {
                        exact = false  // more than 255 colours: quantize below
                    }
                }
            }
        }
        if !exact {
            (indices, colors) = try quantize(image, colorCount: hasTransparency ? 255 : 256)
        }
        var transparentIndex: Int?
        if hasTransparency {
            transparentIndex = colors.count
            colors.append(GifColorType(Red: 0, Green: 0, Blue: 0))
            image.pixels.withUnsafeBufferPointer { src in
                for y in 0..<height {
                    for x in 0..<width where src[y * image.bytesPerRow + x * 4 + 3] < 128 {
                        indices[y * width + x] = GifPixelType(transparentIndex!)
                    }
                }
            }
        }
        var tableSize = 2
        while tableSize < colors.count { tableSize *= 2 }
        colors += Array(repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: tableSize - colors.count)
        return IndexedFrame(indices: indices, colors: colors, transparentIndex: transparentIndex)
    }

    /// giflib's median-cut quantizer over the frame's RGB planes.
    private static func quantize(_ image: UIImage, colorCount: Int) throws -> ([GifPixelType], [GifColorType]) {
        let width = image.pixelWidth
        let height = image.pixelHeight
        var red = [GifByteType](repeating: 0, count: width * height)
        var green = red
        var blue = red
        image.pixels.withUnsafeBufferPointer { src in
            for y in 0..<height {
                for x in 0..<width {
                    let p = y * image.bytesPerRow + x * 4
                    red[y * width + x] = src[p]
                    green[y * width + x] = src[p + 1]
                    blue[y * width + x] = src[p + 2]
                }
            }
        }
        var output = [GifPixelType](repeating: 0, count: width * height)
        var map = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: 256)
        var size = Int32(colorCount)
        guard GifQuantizeBuffer(UInt32(width), UInt32(height), &size, &red, &green, &blue, &output, &map) == GIF_OK
        else {
            throw SDWebImageCoderError.encodeFailed(.gif, reason: "colour quantization failed")
        }
        return (output, Array(map.prefix(Int(size))))
    }

    private static func encodeError(_ code: Int32) -> SDWebImageCoderError {
        .encodeFailed(.gif, reason: GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)")
    }
}

/// giflib's write callback: appends to the `OutputBuffer` in `UserData`.
private let gifWriteToMemory: OutputFunc = { gif, bytes, length in
    guard let gif, let bytes, let user = gif.pointee.UserData, length > 0 else { return 0 }
    Unmanaged<SDWebImageGIFCoder.OutputBuffer>.fromOpaque(user).takeUnretainedValue().data.append(
        bytes, count: Int(length))
    return length
}
