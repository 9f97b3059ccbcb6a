import Foundation

/// Ports `SDScaledImageForKey` from `SDWebImageCompat.m` (4.4.8): an image whose key contains "@2x."
/// gets scale 2, "@3x." scale 3 (keys shorter than 8 characters are never scaled); animated images are
/// rebuilt frame by frame with the same durations, loop count and format.
/// At tag 4.4.8: `SDWebImage/SDWebImageCompat.m:20` (`SDScaledImageForKey`).
public func SDScaledImageForKey(_ key: String?, _ image: UIImage?) -> UIImage? {
    guard let image else { return nil }
    if let frames = image.images, !frames.isEmpty {
        let scaledFrames = frames.map { SDScaledImageForKey(key, $0) ?? $0 }
        let animated = UIImage(animatedFrames: scaledFrames, durations: image.frameDurations,
                               loopCount: image.sd_imageLoopCount, format: image.sd_imageFormat)
        animated?.sd_isDecoded = image.sd_isDecoded
        return animated
    }
    var scale: CGFloat = 1
    if let key, key.count >= 8 {
        if key.contains("@2x.") { scale = 2 }
        if key.contains("@3x.") { scale = 3 }
    }
    return scale == image.scale ? image : image.withScale(scale)
}
