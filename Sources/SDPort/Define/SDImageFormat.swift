/// The image formats SDWebImage 4.4 can tell apart.
///
/// Ports `SDImageFormat` from `NSData+ImageContentType.h` (4.4.8). The raw values are the original's.
/// 5.x adds PDF (7), SVG (8), BMP (9) and RAW (10); this port keeps the 4.x set.
/// At tag 4.4.8: `SDWebImage/NSData+ImageContentType.h:13` (`SDImageFormat`).
/// At tag 5.21.5: `SDWebImage/Core/NSData+ImageContentType.h:17` (`SDImageFormat`).
public enum SDImageFormat: Int, Sendable, CaseIterable {
    case undefined = -1
    case jpeg = 0
    case png = 1
    case gif = 2
    case tiff = 3
    case webp = 4
    case heic = 5
    case heif = 6
}
