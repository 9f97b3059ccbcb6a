import CExif
import Foundation

/// The EXIF orientation of a JPEG, read with libexif, and the pixel transform that shows it upright (COD-09).
///
/// Ports the orientation handling of 4.4.8 on iOS, tvOS and watchOS: `SDWebImageImageIOCoder.m`
/// (`incrementallyDecodedImageWithData:finished:` reads `kCGImagePropertyOrientation`, a full decode gets it from
/// `-[UIImage initWithData:]` (4.0–4.3 read it in `+sd_imageOrientationFromImageData:`, which sits in
/// `UIImage+MultiFormat.m` before 4.2), and
/// `encodedDataWithImage:format:` writes it back) and `SDWebImageCoderHelper.m`
/// (`+imageOrientationFromEXIFOrientation:` and `+exifOrientationFromImageOrientation:`, whose `UIImageOrientation`
/// names the cases keep). On iOS a `UIImage` carries its orientation and UIKit rotates when drawing; this port's
/// `UIImage` is a plain bitmap, so `applied(to:)` moves the pixels instead, giving what a viewer shows for each EXIF
/// value.
/// At tag 4.4.8: `SDWebImage/SDWebImageImageIOCoder.m:112` (`-incrementallyDecodedImageWithData:finished:`), `SDWebImage/SDWebImageCoderHelper.m:164` (`+imageOrientationFromEXIFOrientation:`), `SDWebImage/SDWebImageCoderHelper.m:199` (`+exifOrientationFromImageOrientation:`).
public enum SDImageEXIFOrientation: Int, Sendable, CaseIterable {
    /// 1: stored upright.
    case up = 1
    /// 2: flipped horizontally.
    case upMirrored = 2
    /// 3: rotated 180°.
    case down = 3
    /// 4: flipped vertically.
    case downMirrored = 4
    /// 5: transposed (mirrored across the main diagonal).
    case leftMirrored = 5
    /// 6: shown after rotating 90° clockwise.
    case right = 6
    /// 7: transversed (mirrored across the other diagonal).
    case rightMirrored = 7
    /// 8: shown after rotating 90° counter-clockwise.
    case left = 8

    /// The orientation tag (0x0112 in IFD0) of JPEG data, or of raw EXIF data starting with "Exif\0\0";
    /// `.up` when there is none or it is invalid.
    ///
    /// libexif parses the bytes; it bounds-checks every offset, so malformed data gives no tag, never a crash.
    public static func of(jpegData data: Data) -> SDImageEXIFOrientation {
        // libexif takes an unsigned int length; EXIF lives in the first 64 KB of a JPEG anyway.
        guard !data.isEmpty, data.count <= Int(UInt32.max), let exif = exif_data_new() else { return .up }
        defer { exif_data_unref(exif) }
        // Without this libexif "fixes" the data after loading, adding default tags the file never had.
        exif_data_unset_option(exif, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        data.withUnsafeBytes { raw in
            exif_data_load_data(exif, raw.bindMemory(to: UInt8.self).baseAddress, UInt32(raw.count))
        }
        guard let ifd0 = exif.pointee.ifd.0,
            let entry = exif_content_get_entry(ifd0, EXIF_TAG_ORIENTATION),
            entry.pointee.format == EXIF_FORMAT_SHORT, entry.pointee.components >= 1,
            entry.pointee.size >= 2, let bytes = entry.pointee.data
        else { return .up }
        let value = exif_get_short(bytes, exif_data_get_byte_order(exif))
        return SDImageEXIFOrientation(rawValue: Int(value)) ?? .up
    }

    /// Whether the stored image is turned on its side (width and height swap when applied).
    var swapsDimensions: Bool { rawValue >= 5 }

    /// The image with this orientation applied to its pixels (width and height swap for 5...8); `self == .up`
    /// returns `image` itself. Keeps scale, format, hasAlpha (and, for an animated image, every frame's timing).
    public func applied(to image: UIImage) -> UIImage {
        guard self != .up else { return image }
        let result: UIImage
        if let animated = image.mappingImages({ applied(to: $0) }) {
            result = animated
        } else {
            result = UIImage(
                pixelWidth: swapsDimensions ? image.pixelHeight : image.pixelWidth,
                pixelHeight: swapsDimensions ? image.pixelWidth : image.pixelHeight,
                pixels: transformedPixels(of: image), hasAlpha: image.hasAlpha, scale: image.scale,
                format: image.sd_imageFormat)
        }
        result.sd_isDecoded = image.sd_isDecoded
        return result
    }

    /// The pixels of `image` rearranged, row by row of the output: output (x, y) takes the stored pixel that a
    /// viewer shows at (x, y) for this orientation.
    private func transformedPixels(of image: UIImage) -> [UInt8] {
        let width = image.pixelWidth
        let height = image.pixelHeight
        let rowBytes = image.bytesPerRow
        guard width > 0, height > 0, image.pixels.count >= (height - 1) * rowBytes + width * 4 else { return [] }
        let outWidth = swapsDimensions ? height : width
        let outHeight = swapsDimensions ? width : height
        // Source position of output (x, y) as start + x·stepX + y·stepY, in bytes.
        let (start, stepX, stepY): (Int, Int, Int)
        let right = (width - 1) * 4
        let bottom = (height - 1) * rowBytes
        switch self {
        case .up: (start, stepX, stepY) = (0, 4, rowBytes)
        case .upMirrored: (start, stepX, stepY) = (right, -4, rowBytes)
        case .down: (start, stepX, stepY) = (bottom + right, -4, -rowBytes)
        case .downMirrored: (start, stepX, stepY) = (bottom, 4, -rowBytes)
        case .leftMirrored: (start, stepX, stepY) = (0, rowBytes, 4)
        case .right: (start, stepX, stepY) = (bottom, -rowBytes, 4)
        case .rightMirrored: (start, stepX, stepY) = (bottom + right, -rowBytes, -4)
        case .left: (start, stepX, stepY) = (right, rowBytes, -4)
        }
        return [UInt8](unsafeUninitializedCapacity: outWidth * outHeight * 4) { out, count in
            image.pixels.withUnsafeBufferPointer { src in
                var o = 0
                for y in 0..<outHeight {
                    var s = start + y * stepY
                    for _ in 0..<outWidth {
                        out[o] = src[s]
                        out[o + 1] = src[s + 1]
                        out[o + 2] = src[s + 2]
                        out[o + 3] = src[s + 3]
                        o += 4
                        s += stepX
                    }
                }
            }
            count = outWidth * outHeight * 4
        }
    }
}
