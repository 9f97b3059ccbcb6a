import Foundation

/// Resizes images to a size in pixels (V5-02).
///
/// Ports `SDImageResizingTransformer` (`SDImageTransformer.m`, 5.x, which calls `-[UIImage
/// sd_resizedImageWithSize:scaleMode:]`). Linux difference: 5.x draws with Core Graphics in points; here the size is
/// in pixels and pixels are resampled with the port's area-averaging filter (`SDImageBoxResampler`). The result
/// keeps the source's scale and format; animated images are resized frame by frame.
/// At tag 5.21.5: `SDWebImage/Core/SDImageTransformer.m:168` (`SDImageResizingTransformer`), `SDWebImage/Core/UIImage+Transform.m:353` (`-sd_resizedImageWithSize:scaleMode:`).
public final class SDImageResizingTransformer: SDImageTransformer {
    /// The size of the result, in points.
    public let size: CGSize
    /// How the image fills `size`: fill, aspect fit or aspect fill.
    public let scaleMode: SDImageScaleMode

    /// A transformer that resizes to `size` with `scaleMode`.
    public init(size: CGSize, scaleMode: SDImageScaleMode) {
        self.size = size
        self.scaleMode = scaleMode
    }

    public var transformerKey: String {
        "SDImageResizingTransformer(" + String(format: "{%f,%f}", Double(size.width), Double(size.height))
            + ",\(scaleMode.rawValue))"
    }

    public func transformedImage(with image: UIImage, forKey key: String) -> UIImage? {
        let width = Int(size.width.rounded())
        let height = Int(size.height.rounded())
        guard width > 0, height > 0, image.pixelWidth > 0, image.pixelHeight > 0 else { return nil }
        return SDImagePixelOperations.mapFrames(of: image) { frame in
            resize(frame, width: width, height: height)
        }
    }

    private func resize(_ image: UIImage, width: Int, height: Int) -> UIImage {
        let sourceWidth = Double(image.pixelWidth)
        let sourceHeight = Double(image.pixelHeight)
        switch scaleMode {
        case .fill:
            return SDImagePixelOperations.resampled(image, width: width, height: height)
        case .aspectFit, .aspectFill:
            let ratio =
                scaleMode == .aspectFit
                ? min(Double(width) / sourceWidth, Double(height) / sourceHeight)
                : max(Double(width) / sourceWidth, Double(height) / sourceHeight)
            let scaledWidth = max(1, Int((sourceWidth * ratio).rounded()))
            let scaledHeight = max(1, Int((sourceHeight * ratio).rounded()))
            let scaled = SDImagePixelOperations.resampled(image, width: scaledWidth, height: scaledHeight)
            // Centre the scaled image on a transparent canvas of the target size (cropping what overflows).
            return SDImagePixelOperations.placed(
                scaled, onCanvasWidth: width, height: height,
                x: (width - scaledWidth) / 2, y: (height - scaledHeight) / 2)
        }
    }
}
