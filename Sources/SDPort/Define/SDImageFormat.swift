/// The image formats SDWebImage 4.4.8 can tell apart (HEIF since 4.4.3).
///
/// Ports `SDImageFormat` from `NSData+ImageContentType.h` (4.4.8). The raw values are the original's.
/// 5.x adds PDF (7) and SVG (8) in 5.6.0, BMP (9) and RAW (10) in 5.14.0; this port keeps the 4.x set.
/// At tag 4.4.8: `SDWebImage/NSData+ImageContentType.h:13` (`SDImageFormat`).
/// At tag 5.21.5: `SDWebImage/Core/NSData+ImageContentType.h:17` (`SDImageFormat`).
public enum SDImageFormat: Int, Sendable, CaseIterable {
    /// The first bytes match no known format (-1).
    case undefined = -1
    /// JPEG: the data starts with 0xFF.
    case jpeg = 0
    /// PNG: the data starts with 0x89.
    case png = 1
    /// GIF: the data starts with 0x47 ('G').
    case gif = 2
    /// TIFF: the data starts with 0x49 or 0x4D (byte order mark).
    case tiff = 3
    /// WebP: "RIFF", then "WEBP" at bytes 8 to 11.
    case webp = 4
    /// HEIC: an `ftyp` box with brand heic, heix, hevc or hevx.
    case heic = 5
    /// HEIF: an `ftyp` box with brand mif1 or msf1.
    case heif = 6
}
