import Foundation

/// One frame of an animated image: its bitmap and how long it is shown.
///
/// Ports `SDWebImageFrame` (`SDWebImageFrame.h/.m`, 4.4.8), which the coders use to hand frames to
/// `SDWebImageCoderHelper`. 5.x renames it `SDImageFrame` and keeps the same two properties.
/// At tag 4.4.8: `SDWebImage/SDWebImageFrame.m:20` (`+frameWithImage:duration:`).
/// At tag 5.21.5: `SDWebImage/Core/SDImageFrame.m:29` (`+frameWithImage:duration:`).
public struct SDWebImageFrame: Sendable {
    /// The frame's still image.
    public let image: UIImage
    /// Display time in seconds.
    public let duration: TimeInterval

    /// Ports `+frameWithImage:duration:`.
    public init(image: UIImage, duration: TimeInterval) {
        self.image = image
        self.duration = duration
    }
}
