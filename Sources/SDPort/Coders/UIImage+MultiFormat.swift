import Foundation

/// Ports `UIImage+MultiFormat` (`UIImage+MultiFormat.m`, 4.4.8): decoding and encoding any format through the
/// shared coders manager (COD-07). `sd_imageFormat` and `sd_imageLoopCount`, which the original keeps in
/// associated objects (on macOS the loop count in the bitmap representation; an image whose format was never set
/// reports its `CGImage`'s type), are stored properties of the stand-in `UIImage` here. 5.x adds variants of
/// these methods that take options (a scale factor, first frame only, compression quality).
/// At tag 4.4.8: `SDWebImage/UIImage+MultiFormat.m:78` (`+sd_imageWithData:`), `SDWebImage/UIImage+MultiFormat.m:86` (`-sd_imageDataAsFormat:`).
/// At tag 5.21.5: `SDWebImage/Core/UIImage+MultiFormat.m:24` (`+sd_imageWithData:scale:firstFrameOnly:`), `SDWebImage/Core/UIImage+MultiFormat.m:56` (`-sd_imageDataAsFormat:compressionQuality:firstFrameOnly:`).
extension UIImage {
    /// Ports `+sd_imageWithData:`: decodes with `SDWebImageCodersManager.shared`; nil for nil, empty or
    /// undecodable data.
    public static func sd_image(with data: Data?) -> UIImage? {
        SDWebImageCodersManager.shared.decodedImage(with: data)
    }

    /// Ports `-sd_imageData`: encoded as `.undefined`, which is PNG for an image with alpha, JPEG otherwise.
    public func sd_imageData() -> Data? {
        sd_imageData(as: .undefined)
    }

    /// Ports `-sd_imageDataAsFormat:`: encoded by the coder of `SDWebImageCodersManager.shared` that can write
    /// `format` and was added last (the manager asks its coders last to first, as 4.4.8's does); nil when none
    /// can (here TIFF, HEIC and HEIF, which 4.4.8's ImageIO coder writes, HEIC and HEIF where the system can).
    public func sd_imageData(as format: SDImageFormat) -> Data? {
        SDWebImageCodersManager.shared.encodedData(with: self, format: format)
    }
}
