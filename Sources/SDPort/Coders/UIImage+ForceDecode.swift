import Foundation

/// Ports `UIImage+ForceDecode` (`UIImage+ForceDecode.m`, 4.4.8; COD-11): decode an image now, through the shared
/// coders manager, instead of when it is first drawn. Both hand the image to
/// `SDWebImageCodersManager.shared.decompressedImage(with:data:options:)` with no data, the first with
/// `SDWebImageCoderScaleDownLargeImagesKey` false and the second with it true (`UIImage+ForceDecode.m:14-28`).
/// An animated image comes back as it is (in the port also one already decoded); so does every image on macOS in
/// 4.4.8, whose ImageIO coder force-decodes only on iOS, tvOS and watchOS. 5.x renames them
/// `sd_decodedImageWithImage:` and `sd_decodedAndScaledDownImageWithImage:` and adds `sd_isDecoded`.
/// At tag 4.4.8: `SDWebImage/UIImage+ForceDecode.m:14` (`+decodedImageWithImage:`), `SDWebImage/UIImage+ForceDecode.m:22` (`+decodedAndScaledDownImageWithImage:`).
extension UIImage {
    /// The image force-decoded (`+decodedImageWithImage:`); nil for nil.
    public static func decodedImage(with image: UIImage?) -> UIImage? {
        decoded(image, scaleDown: false)
    }

    /// The image force-decoded and, when it has more than 60 MB of pixels, scaled down under that
    /// (`+decodedAndScaledDownImageWithImage:`); nil for nil.
    public static func decodedAndScaledDownImage(with image: UIImage?) -> UIImage? {
        decoded(image, scaleDown: true)
    }

    private static func decoded(_ image: UIImage?, scaleDown: Bool) -> UIImage? {
        guard let image else { return nil }
        var discarded: Data?  // 4.4.8 passes a temporary that nobody reads
        return SDWebImageCodersManager.shared.decompressedImage(
            with: image, data: &discarded, options: [SDWebImageCoderScaleDownLargeImagesKey: scaleDown])
    }
}
