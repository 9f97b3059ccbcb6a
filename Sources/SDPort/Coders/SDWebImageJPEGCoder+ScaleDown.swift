import CJPEGShim
import Foundation

extension SDWebImageJPEGCoder {
    /// Decodes a JPEG over `limitPixels` straight into its scaled-down size, reading it row by row, so the
    /// full-size bitmap never exists: the peak is the scaled image plus a few rows (`sdport-bench memory`:
    /// 5250×3450 scaled down with a peak of about 1.3× the 60 MB limit instead of 2.5×).
    ///
    /// 4.4.8's `-sd_decompressedAndScaledDownImageWithImage:` (`SDWebImageImageIOCoder.m`, iOS, tvOS and watchOS) has
    /// the same aim: it draws the lazily decoded source into the destination in tiles of `kSourceImageTileSizeMB` so
    /// that the whole source never has to be decoded at once. The port's decoders are not lazy, so the streaming
    /// happens here instead. Size, resampling and result are those of
    /// `SDWebImageCoderHelper.decompressedAndScaledDownImage`.
    ///
    /// Data that ends early is finished as `decodeImage(from:)` finishes it (COD-13), so a truncated JPEG scales
    /// down to the same picture. nil when there is nothing to stream: not a JPEG, not over the limit, CMYK, an
    /// EXIF orientation other than up, damaged data, or a baseline JPEG that ended before its first rows (those
    /// take the ordinary decode, which scales or fails). Throws only for a header over
    /// `SDWebImageCoderHelper.maxDecodedPixelCount`.
    public static func decodeScaledDown(from data: Data, limitPixels: Int = SDWebImageCoderHelper.destTotalPixels)
        throws -> UIImage?
    {
        guard Data.sd_imageFormat(forImageData: data) == .jpeg,
            SDImageEXIFOrientation.of(jpegData: data) == .up
        else { return nil }
        return try data.withUnsafeBytes { raw -> UIImage? in
            let bytes = raw.bindMemory(to: UInt8.self)
            // The header alone first: most images are under the limit, and starting a decompressor allocates
            // its buffers (for a progressive JPEG, the whole image's coefficients).
            var info = sdjpeg_info()
            guard sdjpeg_read_header(bytes.baseAddress, bytes.count, &info) == Int32(SDJPEG_OK) else { return nil }
            let width = Int(info.width)
            let height = Int(info.height)
            try SDWebImageCoderHelper.checkPixelBudget(width: width, height: height)
            guard width * height > limitPixels else { return nil }  // `+shouldScaleDownImage:`
            let size = SDWebImageCoderHelper.scaledDownSize(width: width, height: height, limitPixels: limitPixels)
            guard size.width > 0, size.height > 0 else { return nil }  // a side of 0: left to the general path
            guard let stream = sdjpeg_stream_open(bytes.baseAddress, bytes.count, &info) else { return nil }
            defer { sdjpeg_stream_close(stream) }
            let row = UnsafeMutablePointer<UInt8>.allocate(capacity: width * 4)
            row.initialize(repeating: 0, count: width * 4)
            defer { row.deallocate() }
            var nextRow = 0
            var failure = Int32(SDJPEG_OK)
            let pixels = SDImageBoxResampler.resample(
                sourceWidth: width, sourceHeight: height, hasAlpha: false,
                toWidth: size.width, height: size.height
            ) { y in
                // After a failure the stream is not read again; the result is thrown away below.
                while nextRow <= y && failure == Int32(SDJPEG_OK) {
                    failure = sdjpeg_stream_read_row(stream, row)
                    nextRow += 1
                }
                return UnsafePointer(row)
            }
            // Damaged data, or nothing of the picture arrived: the ordinary decode decides, as for any image.
            guard failure == Int32(SDJPEG_OK) else { return nil }
            let end = sdjpeg_stream_info(stream).pointee
            if end.hit_end_of_data != 0, end.progressive == 0, end.end_of_data_row == 0 { return nil }
            let image = UIImage(
                pixelWidth: size.width, pixelHeight: size.height, pixels: pixels, hasAlpha: false, format: .jpeg)
            image.sd_isDecoded = true
            return image
        }
    }
}
