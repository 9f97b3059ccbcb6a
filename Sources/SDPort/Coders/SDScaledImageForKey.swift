import Foundation

/// Ports `SDScaledImageForKey` from `SDWebImageCompat.m` (4.4.8, iOS, tvOS and watchOS; on macOS it returns the image
/// unchanged): an image whose key contains "@2x." gets scale 2, "@3x." scale 3 (keys shorter than 8 UTF-16 units,
/// `key.length`, are never scaled); animated images are rebuilt image by image with the same duration, loop count and
/// format. The port scales each distinct image once, so a repeated frame stays one object, which `frames(from:)` merges
/// back; chapter 08 says when 4.4.8 copies each entry instead.
/// At tag 4.4.8: `SDWebImage/SDWebImageCompat.m:20` (`SDScaledImageForKey`).
public func SDScaledImageForKey(_ key: String?, _ image: UIImage?) -> UIImage? {
    guard let image else { return nil }
    if let animated = image.mappingImages({ SDScaledImageForKey(key, $0) ?? $0 }) {
        return animated
    }
    var scale: CGFloat = 1
    if let key, key.utf16.count >= 8 {
        if key.contains("@2x.") { scale = 2 }
        if key.contains("@3x.") { scale = 3 }
    }
    return scale == image.scale ? image : image.withScale(scale)
}
