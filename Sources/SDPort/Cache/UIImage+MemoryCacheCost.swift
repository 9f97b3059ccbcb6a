import Foundation

/// The cost an image is stored with in the memory cache (CACHE-03, CACHE-15).
///
/// Ports `UIImage+MemoryCacheCost.m` (4.4.8): the getter and setter of `sd_memoryCost`, and
/// `SDMemoryCacheCostForImage` (4.0–4.4.3 had it as `SDCacheCostForImage` in `SDImageCache.m`, without the
/// frame count). The computed cost is width × height in points times scale², that is the number of pixels,
/// multiplied by the number of frames for an animated image (4.4.4+; on macOS 4.4.8 charges width × height). 5.x
/// counts bytes instead (bytes per row × height, times the frames except on macOS; distinct frames only since
/// 5.12.0).
/// At tag 4.4.8: `SDWebImage/UIImage+MemoryCacheCost.m:23` (`-sd_memoryCost`), `SDWebImage/UIImage+MemoryCacheCost.m:12` (`SDMemoryCacheCostForImage`).
/// At tag 5.21.5: `SDWebImage/Core/UIImage+MemoryCacheCost.m:13` (`SDMemoryCacheCostForImage`).
extension UIImage {
    /// The cost the memory cache charges for this image. Once a value has been set it is what the getter
    /// returns, whatever it is (zero included), as 4.4.8 returns any associated number it finds; until then the
    /// pixel count above. The value lives in the image under its lock, because one image is shared by threads.
    /// Like the original's associated object, it belongs to this instance only: a copy made by scaling or
    /// decoding computes its own.
    public var sd_memoryCost: UInt {
        get { sd_storedMemoryCost ?? sd_computedMemoryCost }
        set { sd_storedMemoryCost = newValue }
    }

    /// Ports `SDMemoryCacheCostForImage`: pixels in the image, times the frame count when animated.
    private var sd_computedMemoryCost: UInt {
        let pointArea = size.width * size.height * scale * scale
        let stillCost = UInt(max(0, pointArea.rounded()))
        guard let frames = images else { return stillCost }
        return stillCost * UInt(frames.count)
    }
}
