import Foundation

/// Ports `UIImage+GIF` (`UIImage+GIF.m`, 4.4.8): making an animated image from GIF data (COD-07, COD-14).
/// 5.x renames it `sd_imageWithGIFData:` and decodes through `SDImageGIFCoder`.
/// At tag 4.4.8: `SDWebImage/UIImage+GIF.m:16` (`+sd_animatedGIFWithData:`), `SDWebImage/SDWebImageGIFCoder.m:33` (`-decodedImageWithData:`).
/// At tag 5.21.5: `SDWebImage/Core/UIImage+GIF.m:15` (`+sd_imageWithGIFData:`).
extension UIImage {
    /// Ports `+sd_animatedGIFWithData:`: GIF data decoded by `SDWebImageGIFCoder.shared` — animated when it has
    /// several frames, still when it has one. Other data gives a still image through `SDWebImageImageIOCoder`
    /// (JPEG, PNG), since 4.4.8's GIF coder (on iOS, tvOS and watchOS) reads any data through `CGImageSource` and
    /// hands what has at most one frame to `initWithData:` (COD-14); an APNG, which that coder animates (100 ms a
    /// frame), gives its first frame here. nil for nil or undecodable data.
    public static func sd_animatedGIF(with data: Data?) -> UIImage? {
        guard let data else { return nil }
        if SDWebImageGIFCoder.shared.canDecode(from: data) {
            return SDWebImageGIFCoder.shared.decodedImage(with: data)
        }
        return SDWebImageImageIOCoder.shared.decodedImage(with: data)
    }

    /// Ports `-isGIF`: whether the image is animated (the original checks `images != nil`, whatever the format;
    /// on macOS `NSImage+WebCache` defines `isGIF` too, as more than one frame).
    public var isGIF: Bool {
        images != nil
    }
}
