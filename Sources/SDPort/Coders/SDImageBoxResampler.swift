import Foundation

/// Resizes an RGBA8 bitmap with an area-averaging (box) filter: every destination pixel is the average of the
/// source area it covers, partial pixels weighted by how much of them it covers. For the small reductions that
/// scaling down to the 60 MB limit makes (a factor of about 0.9), this is as sharp as a good bilinear filter and
/// never drops source rows or columns.
///
/// Not in the original (which lets Core Graphics draw with `kCGInterpolationHigh`); used by
/// `SDWebImageCoderHelper.decompressedAndScaledDownImage`. Images with alpha are averaged with premultiplied
/// colour, so transparent pixels do not darken their neighbours.
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
                let low = Double(d) * ratio, high = Double(d + 1) * ratio
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
    static func resample(_ image: UIImage, toWidth width: Int, height: Int) -> [UInt8] {
        let sourceWidth = image.pixelWidth, sourceHeight = image.pixelHeight
        let columns = Taps(source: sourceWidth, destination: width)
        let rows = Taps(source: sourceHeight, destination: height)
        let premultiply = image.hasAlpha
        var horizontal = [Float](repeating: 0, count: width * 4)   // one source row, resampled across
        var accumulator = [Float](repeating: 0, count: width * 4)  // one destination row being summed
        var lastSourceRow = -1

        return SDWebImageCoderHelper.makePixels(count: width * height * 4) { out in
            image.pixels.withUnsafeBufferPointer { source in
                horizontal.withUnsafeMutableBufferPointer { h in
                    accumulator.withUnsafeMutableBufferPointer { acc in
                        columns.weights.withUnsafeBufferPointer { cw in
                            for dy in 0..<height {
                                for i in 0..<acc.count { acc[i] = 0 }
                                var sy = rows.first[dy]
                                for t in rows.offsets[dy]..<rows.offsets[dy + 1] {
                                    if sy != lastSourceRow {
                                        resampleRow(source.baseAddress! + sy * image.bytesPerRow, into: h,
                                                    columns: columns, weights: cw, premultiply: premultiply)
                                        lastSourceRow = sy
                                    }
                                    let wy = rows.weights[t]
                                    for i in 0..<acc.count { acc[i] += wy * h[i] }
                                    sy += 1
                                }
                                store(acc, into: out.baseAddress! + dy * width * 4, premultiplied: premultiply)
                            }
                        }
                    }
                }
            }
        }
    }

    private static func resampleRow(_ row: UnsafePointer<UInt8>, into h: UnsafeMutableBufferPointer<Float>,
                                    columns: Taps, weights: UnsafeBufferPointer<Float>, premultiply: Bool) {
        for dx in 0..<(h.count / 4) {
            var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
            var p = row + columns.first[dx] * 4
            for t in columns.offsets[dx]..<columns.offsets[dx + 1] {
                let w = weights[t]
                let alpha = Float(p[3])
                let colourWeight = premultiply ? w * alpha / 255 : w
                r += colourWeight * Float(p[0])
                g += colourWeight * Float(p[1])
                b += colourWeight * Float(p[2])
                a += w * alpha
                p += 4
            }
            h[dx * 4] = r
            h[dx * 4 + 1] = g
            h[dx * 4 + 2] = b
            h[dx * 4 + 3] = a
        }
    }

    private static func store(_ acc: UnsafeMutableBufferPointer<Float>, into out: UnsafeMutablePointer<UInt8>,
                              premultiplied: Bool) {
        @inline(__always) func byte(_ value: Float) -> UInt8 { UInt8(max(0, min(255, value.rounded()))) }
        for dx in 0..<(acc.count / 4) {
            let alpha = acc[dx * 4 + 3]
            // Premultiplied sums carry alpha/255 in every colour weight: divide it back out.
            let unpremultiply: Float = premultiplied ? (alpha > 0 ? 255 / alpha : 0) : 1
            out[dx * 4] = byte(acc[dx * 4] * unpremultiply)
            out[dx * 4 + 1] = byte(acc[dx * 4 + 1] * unpremultiply)
            out[dx * 4 + 2] = byte(acc[dx * 4 + 2] * unpremultiply)
            out[dx * 4 + 3] = premultiplied ? byte(alpha) : 255
        }
    }
}
