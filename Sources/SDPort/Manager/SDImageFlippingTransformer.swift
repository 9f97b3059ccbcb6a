import Foundation

/// Mirrors images horizontally and/or vertically (V5-02).
///
/// Ports `SDImageFlippingTransformer` (`SDImageTransformer.m`, 5.x, which calls `-[UIImage
/// sd_flippedImageWithHorizontal:vertical:]`). Here the pixels are reordered directly; animated images are flipped
/// frame by frame.
/// At tag 5.21.5: `SDWebImage/Core/SDImageTransformer.m:228` (`SDImageFlippingTransformer`), `SDWebImage/Core/UIImage+Transform.m:492` (`-sd_flippedImageWithHorizontal:vertical:`).
public final class SDImageFlippingTransformer: SDImageTransformer {
    /// Whether the image is mirrored left to right.
    public let horizontal: Bool
    /// Whether the image is mirrored top to bottom.
    public let vertical: Bool

    /// A transformer that flips horizontally, vertically, or both.
    public init(horizontal: Bool, vertical: Bool) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    public var transformerKey: String {
        "SDImageFlippingTransformer(\(horizontal ? 1 : 0),\(vertical ? 1 : 0))"
    }

    public func transformedImage(with image: UIImage, forKey key: String) -> UIImage? {
        SDImagePixelOperations.mapFrames(of: image) { frame in
            SDImagePixelOperations.flipped(frame, horizontal: horizontal, vertical: vertical)
        }
    }
}
