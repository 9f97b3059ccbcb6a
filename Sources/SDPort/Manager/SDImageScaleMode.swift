/// How `SDImageResizingTransformer` fits an image into the target size.
///
/// Ports `SDImageScaleMode` (`UIImage+Transform.h`, 5.x), with its raw values.
/// At tag 5.21.5: `SDWebImage/Core/UIImage+Transform.h:12` (`SDImageScaleMode`).
public enum SDImageScaleMode: UInt, Sendable {
    /// Stretch to the target size, ignoring the aspect ratio.
    case fill = 0
    /// Scale to fit inside the target size, keeping the aspect ratio; the rest stays transparent.
    case aspectFit = 1
    /// Scale to cover the target size, keeping the aspect ratio; what overflows is cropped (centred).
    case aspectFill = 2
}
