import Foundation
import SDPort

extension UIImage {
    /// How long each frame of an animated image is shown: the durations of `SDWebImageCoderHelper.frames(from:)`
    /// (a repeated image is one frame); empty for a still image.
    public var frameDurations: [TimeInterval] {
        SDWebImageCoderHelper.frames(from: self)?.map(\.duration) ?? []
    }

    /// The distinct frames of an animated image (`frames(from:)`), or the image itself.
    public var distinctFrames: [UIImage] {
        SDWebImageCoderHelper.frames(from: self)?.map(\.image) ?? [self]
    }
}
