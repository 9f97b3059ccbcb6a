import Foundation

/// The cost an image is stored with in the memory cache.
///
/// Ports `SDMemoryCacheCostForImage` from `UIImage+MemoryCacheCost.m` (4.4.8; 4.0–4.4.3 had it as
/// `SDCacheCostForImage` in `SDImageCache.m`, without the frame count): width × height in points times
/// scale², that is the number of pixels, multiplied by the number of frames for an animated image (4.4.4+).
/// 5.x counts bytes instead (bytes per row × height × unique frames). The original lets callers override
/// the value through an associated object; this port does not.
extension UIImage {
    /// Pixels in the image, times the frame count when animated.
    public var sd_memoryCost: UInt {
        let pointArea = size.width * size.height * scale * scale
        let stillCost = UInt(max(0, pointArea.rounded()))
        guard let frames = images else { return stillCost }
        return stillCost * UInt(frames.count)
    }
}
