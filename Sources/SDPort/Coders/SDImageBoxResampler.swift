import Foundation

/// Resizes an RGBA8 bitmap with an area-averaging (box) filter: every destination pixel is the average of the
/// source area it covers, partial pixels weighted by how much of them it covers. For the small reductions that
/// scaling down to the 60 MB limit makes (a factor of about 0.9), this is as sharp as a good bilinear filter and
/// never drops source rows or columns.
///
/// Not in the original (which lets Core Graphics draw with `kCGInterpolationHigh`); used by
/// `SDWebImageCoderHelper.decompressedAndScaledDownImage`. Images with alpha are averaged with premultiplied
/// colour, so transparent pixels do not darken their neighbours.
/// At tag 4.4.8: `SDWebImage/SDWebImageImageIOCoder.m:251` (`-sd_decompressedAndScaledDownImageWithImage:`).
enum SDImageBoxResampler {
    /// The source pixels one destination pixel covers along one axis.
    private struct Taps {
        /// For destination index d: its weights are `weights[offsets[d] ..< offsets[d + 1]]`, for source
        /// indices starting at `first[d]`.
        var first: [Int] = []
        var offsets: [Int] = [0]
        var weights: [Float] = []

        init(source: Int, destination: Int) {
            let ratio = Double(source) / Double(destination)
            for d in 0..<destination {
                let low = Double(d) * ratio
                let high = Double(d + 1) * ratio
                let start = min(source - 1, Int(low))
                let end = max(start + 1, min(source, Int(high.rounded(.up))))
                first.append(start)
                for s in start..<end {
                    let covered = min(high, Double(s + 1)) - max(low, Double(s))
                    weights.append(Float(max(0, covered) / ratio))
                }
                offsets.append(weights.count)
            }
        }
    }

    /// The resampled pixels, packed rows (`width * 4` bytes each).
    ///
    /// Rows are resampled across once each into a small cache (a destination row never needs more source
    /// rows than `maxRowTaps`), then each destination row is summed from the cached rows and stored in one
    /// pass. The loops use `while` and raw pointers: besides being fast when optimised, that keeps debug
    /// builds (where range iteration and bounds checks are not optimised away) usable on 18-megapixel images.
    static func resample(_ image: UIImage, toWidth width: Int, height: Int) -> [UInt8] {
        image.pixels.withUnsafeBufferPointer { source in
            resample(
                sourceWidth: image.pixelWidth, sourceHeight: image.pixelHeight, hasAlpha: image.hasAlpha,
                toWidth: width, height: height
            ) { source.baseAddress! + $0 * image.bytesPerRow }
        }
    }

    /// The same from rows handed out one by one: `row(y)` is asked for each source row once, in increasing
    /// order, and its pointer need only stay valid until the next call. A decoder can stream rows into this
    /// without ever holding the whole source bitmap (`SDWebImageJPEGCoder.decodeScaledDown`).
    static func resample(
        sourceWidth: Int, sourceHeight: Int, hasAlpha: Bool, toWidth width: Int, height: Int,
        row sourceRow: (Int) -> UnsafePointer<UInt8>
    ) -> [UInt8] {
        let columns = Taps(source: sourceWidth, destination: width)
        let rows = Taps(source: sourceHeight, destination: height)
        let premultiply = hasAlpha
        let rowFloats = width * 4
        var maxRowTaps = 1
        for d in 0..<height { maxRowTaps = max(maxRowTaps, rows.offsets[d + 1] - rows.offsets[d]) }
        // Cache slot k holds source row `cachedRow[k]` resampled across; slots are reused round robin.
        let cache = UnsafeMutablePointer<Float>.allocate(capacity: rowFloats * maxRowTaps)
        var cachedRow = [Int](repeating: -1, count: maxRowTaps)
        defer { cache.deallocate() }
        var tapRows = [UnsafePointer<Float>](repeating: UnsafePointer(cache), count: maxRowTaps)

        return SDWebImageCoderHelper.makePixels(count: width * height * 4) { out in
            do {
                columns.weights.withUnsafeBufferPointer { columnWeights in
                    columns.first.withUnsafeBufferPointer { columnFirst in
                        columns.offsets.withUnsafeBufferPointer { columnOffsets in
                            var dy = 0
                            while dy < height {
                                let firstTap = rows.offsets[dy]
                                let tapCount = rows.offsets[dy + 1] - firstTap
                                var k = 0
                                while k < tapCount {
                                    let sy = rows.first[dy] + k
                                    let slot = sy % maxRowTaps
                                    let slotRow = cache + slot * rowFloats
                                    if cachedRow[slot] != sy {
                                        resampleRow(
                                            sourceRow(sy), into: slotRow,
                                            width: width, first: columnFirst.baseAddress!,
                                            offsets: columnOffsets.baseAddress!, weights: columnWeights.baseAddress!,
                                            premultiply: premultiply)
                                        cachedRow[slot] = sy
                                    }
                                    tapRows[k] = UnsafePointer(slotRow)
                                    k += 1
                                }
                                rows.weights.withUnsafeBufferPointer { rowWeights in
                                    tapRows.withUnsafeBufferPointer { taps in
                                        store(
                                            taps.baseAddress!, weights: rowWeights.baseAddress! + firstTap,
                                            count: tapCount,
                                            width: width, into: out.baseAddress! + dy * width * 4,
                                            premultiplied: premultiply)
                                    }
                                }
                                dy += 1
                            }
                        }
                    }
                }
            }
        }
    }

    private static func resampleRow(
        _ row: UnsafePointer<UInt8>, into h: UnsafeMutablePointer<Float>, width: Int,
        first: UnsafePointer<Int>, offsets: UnsafePointer<Int>, weights: UnsafePointer<Float>,
        premultiply: Bool
    ) {
        var dx = 0
        while dx < width {
            var r: Float = 0
            var g: Float = 0
            var b: Float = 0
            var a: Float = 0
            var p = row + first[dx] * 4
            var t = offsets[dx]
            let end = offsets[dx + 1]
            while t < end {
                let w = weights[t]
                let alpha = Float(p[3])
                let colourWeight = premultiply ? w * alpha / 255 : w
                r += colourWeight * Float(p[0])
                g += colourWeight * Float(p[1])
                b += colourWeight * Float(p[2])
                a += w * alpha
                p += 4
                t += 1
            }
            let o = h + dx * 4
            o[0] = r
            o[1] = g
            o[2] = b
            o[3] = a
            dx += 1
        }
    }

    /// Sums `count` resampled source rows with their weights into one destination row of bytes.
    private static func store(
        _ taps: UnsafePointer<UnsafePointer<Float>>, weights: UnsafePointer<Float>, count: Int,
        width: Int, into out: UnsafeMutablePointer<UInt8>, premultiplied: Bool
    ) {
        var dx = 0
        while dx < width {
            var r: Float = 0
            var g: Float = 0
            var b: Float = 0
            var a: Float = 0
            var k = 0
            while k < count {
                let w = weights[k]
                let p = taps[k] + dx * 4
                r += w * p[0]
                g += w * p[1]
                b += w * p[2]
                a += w * p[3]
                k += 1
            }
            // Premultiplied sums carry alpha/255 in every colour weight: divide it back out.
            let unpremultiply: Float = premultiplied ? (a > 0 ? 255 / a : 0) : 1
            let o = out + dx * 4
            o[0] = clampToByte(r * unpremultiply)
            o[1] = clampToByte(g * unpremultiply)
            o[2] = clampToByte(b * unpremultiply)
            o[3] = premultiplied ? clampToByte(a) : 255
            dx += 1
        }
    }

    @inline(__always)
    private static func clampToByte(_ value: Float) -> UInt8 {
        let rounded = value + 0.5
        return rounded <= 0 ? 0 : rounded >= 255 ? 255 : UInt8(rounded)
    }
}
