import Foundation

/// A headless stand-in for UIKit's `UIImage`: a decoded RGBA8 bitmap with a point size and a scale,
/// and, for animated images, its frames.
///
/// Pixels are 8 bits per component, 4 bytes per pixel, in R, G, B, A order, **not premultiplied**
/// (straight alpha), rows top to bottom, `bytesPerRow` bytes apart. An opaque image keeps an alpha byte of
/// 255 in every pixel and reports `hasAlpha == false`, which is what "alpha skipped" means here (FAQ-13).
///
/// An animated image is held as UIKit holds one (`+animatedImageWithImages:duration:`): `images` shows each for
/// `duration / images.count`, and shows the first one's pixels as its own. Uneven frame delays are made by
/// repeating a frame (`SDWebImageCoderHelper.animatedImage(with:)`, COD-12, as 4.4.8 does on UIKit and watchOS;
/// its macOS path writes per-frame delays instead); a repeat is the same `UIImage` object, so it shares its bitmap.
/// `SDWebImageCoderHelper.frames(from:)` gives the frames back.
///
/// What the original keeps in associated objects (`sd_imageFormat` and `sd_imageLoopCount` from `UIImage+MultiFormat`
/// and a set `sd_memoryCost` from `UIImage+MemoryCacheCost` in 4.4.8, where macOS keeps the loop count in the
/// bitmap representation instead; `sd_isDecoded` from 5.x's `UIImage+ForceDecode`) is stored here under a lock,
/// because the original sets them after the image exists.
/// At tag 4.4.8: `SDWebImage/UIImage+MultiFormat.m:56` (`-sd_imageFormat`), `SDWebImage/UIImage+MemoryCacheCost.m:23` (`-sd_memoryCost`).
public final class UIImage: @unchecked Sendable {
    /// Width in pixels.
    public let pixelWidth: Int
    /// Height in pixels.
    public let pixelHeight: Int
    /// Bytes from one row to the next (at least `pixelWidth * 4`).
    public let bytesPerRow: Int
    /// RGBA8 pixels, straight alpha. Empty for an image with zero pixels.
    public let pixels: [UInt8]
    /// Whether any pixel may be transparent (the source format had an alpha channel in use).
    public let hasAlpha: Bool
    /// Points to pixels, as UIKit's `scale` (1, 2 or 3).
    public let scale: CGFloat
    /// The images of an animated image, each shown for `duration / images.count` (a frame shown longer is
    /// repeated), or nil for a still one.
    public let images: [UIImage]?
    /// How long one pass through `images` takes, in seconds (UIKit's `duration`); 0 for a still image.
    public let duration: TimeInterval

    /// Guards the associated values below.
    private let associatedLock = NSLock()
    private var _format: SDImageFormat
    private var _loopCount: Int
    private var _isDecoded: Bool
    /// The cost set through `sd_memoryCost`, nil until one is set.
    private var _memoryCost: UInt?

    /// Makes a still image from RGBA8 straight-alpha pixels.
    public init(
        pixelWidth: Int, pixelHeight: Int, pixels: [UInt8], bytesPerRow: Int? = nil,
        hasAlpha: Bool, scale: CGFloat = 1, format: SDImageFormat = .undefined
    ) {
        self.pixelWidth = max(0, pixelWidth)
        self.pixelHeight = max(0, pixelHeight)
        self.bytesPerRow = bytesPerRow ?? max(0, pixelWidth) * 4
        self.pixels = pixels
        self.hasAlpha = hasAlpha
        self.scale = scale > 0 ? scale : 1
        self.images = nil
        self.duration = 0
        self._format = format
        self._loopCount = 0
        self._isDecoded = false
    }

    /// Ports `+[UIImage animatedImageWithImages:duration:]`: `images` shown one after another, each for
    /// `duration / images.count`. Returns nil for an empty list, as UIKit does. `loopCount` and `format` are
    /// `sd_imageLoopCount` and `sd_imageFormat`, which the original sets on the result.
    public init?(
        animatedImages images: [UIImage], duration: TimeInterval, loopCount: Int = 0,
        format: SDImageFormat = .undefined
    ) {
        guard let first = images.first else { return nil }
        self.pixelWidth = first.pixelWidth
        self.pixelHeight = first.pixelHeight
        self.bytesPerRow = first.bytesPerRow
        self.pixels = first.pixels
        self.hasAlpha = images.contains { $0.hasAlpha }
        self.scale = first.scale
        self.images = images
        self.duration = max(0, duration)
        self._format = format
        self._loopCount = loopCount
        self._isDecoded = false
    }

    /// Size in points: pixels divided by `scale`.
    public var size: CGSize {
        CGSize(width: CGFloat(pixelWidth) / scale, height: CGFloat(pixelHeight) / scale)
    }

    /// Whether this is an animated image (UIKit: `images != nil`).
    public var isAnimated: Bool { images != nil }

    /// The format the image was decoded from (`UIImage+MultiFormat.sd_imageFormat`).
    public var sd_imageFormat: SDImageFormat {
        get { associatedLock.withLock { _format } }
        set { associatedLock.withLock { _format = newValue } }
    }

    /// Loop count of an animated image, 0 meaning forever (`UIImage+MultiFormat.sd_imageLoopCount` in 4.4.8).
    public var sd_imageLoopCount: Int {
        get { associatedLock.withLock { _loopCount } }
        set { associatedLock.withLock { _loopCount = newValue } }
    }

    /// Whether the image has already been force-decoded (`UIImage+ForceDecode`), so it is not decoded twice.
    public var sd_isDecoded: Bool {
        get { associatedLock.withLock { _isDecoded } }
        set { associatedLock.withLock { _isDecoded = newValue } }
    }

    /// The memory cost set on this image (`UIImage+MemoryCacheCost`'s associated value), nil when none was set.
    var sd_storedMemoryCost: UInt? {
        get { associatedLock.withLock { _memoryCost } }
        set { associatedLock.withLock { _memoryCost = newValue } }
    }

    /// An animated image whose every image went through `transform`, with the same duration, loop count, format
    /// and decoded mark; each distinct image is transformed once, so a repeated frame stays one object (one
    /// bitmap). For a still image, nil.
    func mappingImages(_ transform: (UIImage) -> UIImage) -> UIImage? {
        guard let images, !images.isEmpty else { return nil }
        var done: [ObjectIdentifier: UIImage] = [:]
        let mapped = images.map { image -> UIImage in
            if let known = done[ObjectIdentifier(image)] { return known }
            let result = transform(image)
            done[ObjectIdentifier(image)] = result
            return result
        }
        let animated = UIImage(
            animatedImages: mapped, duration: duration, loopCount: sd_imageLoopCount,
            format: sd_imageFormat)
        animated?.sd_isDecoded = sd_isDecoded
        return animated
    }

    /// The same bitmap (or frames) at another scale, as `-[UIImage initWithCGImage:scale:orientation:]`.
    public func withScale(_ newScale: CGFloat) -> UIImage {
        if let animated = mappingImages({ $0.withScale(newScale) }) { return animated }
        let copy = UIImage(
            pixelWidth: pixelWidth, pixelHeight: pixelHeight, pixels: pixels,
            bytesPerRow: bytesPerRow, hasAlpha: hasAlpha, scale: newScale, format: sd_imageFormat)
        copy.sd_isDecoded = sd_isDecoded
        return copy
    }

    /// The RGBA value at a pixel (for tests and tools).
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        precondition(x >= 0 && x < pixelWidth && y >= 0 && y < pixelHeight, "pixel out of bounds")
        let i = y * bytesPerRow + x * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}
