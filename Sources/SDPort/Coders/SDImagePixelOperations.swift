import Foundation

/// The pixel work behind the transformers: resampling, placing on a canvas, flipping, per-frame mapping.
///
/// Not a type of the original, where `UIImage+Transform` (5.x) does this with Core Graphics: it draws resized and
/// flipped images and crops with `CGImageCreateWithImageInRect` (from 5.5.0, outside watchOS, an image backed by a
/// `CIImage` is flipped and cropped with Core Image instead). Works on the port's RGBA8 straight-alpha bitmaps;
/// every result is a new image with packed rows that keeps the source's scale and format, and is not marked
/// `sd_isDecoded` unless the source was (a packed RGBA bitmap is already "decoded").
/// At tag 5.21.5: `SDWebImage/Core/UIImage+Transform.m:353` (`-sd_resizedImageWithSize:scaleMode:`), `SDWebImage/Core/UIImage+Transform.m:492` (`-sd_flippedImageWithHorizontal:vertical:`).
enum SDImagePixelOperations {
    /// Applies `transform` to each distinct image of an animated image (keeping duration and loop count), or to
    /// the image.
    static func mapFrames(of image: UIImage, _ transform: (UIImage) -> UIImage) -> UIImage? {
        image.mappingImages(transform) ?? transform(image)
    }

    static func resampled(_ image: UIImage, width: Int, height: Int) -> UIImage {
        if width == image.pixelWidth && height == image.pixelHeight { return image }
        let pixels = SDImageBoxResampler.resample(image, toWidth: width, height: height)
        return make(like: image, width: width, height: height, pixels: pixels, hasAlpha: image.hasAlpha)
    }

    /// `image` drawn at (`x`, `y`) on a transparent canvas; parts outside the canvas are cropped.
    static func placed(_ image: UIImage, onCanvasWidth width: Int, height: Int, x: Int, y: Int) -> UIImage {
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        let firstColumn = max(0, x)
        let lastColumn = min(width, x + image.pixelWidth)
        var covered = true
        if x > 0 || y > 0 || x + image.pixelWidth < width || y + image.pixelHeight < height { covered = false }
        if firstColumn < lastColumn {
            for row in max(0, y)..<min(height, y + image.pixelHeight) {
                let sourceStart = (row - y) * image.bytesPerRow + (firstColumn - x) * 4
                let destinationStart = row * width * 4 + firstColumn * 4
                let count = (lastColumn - firstColumn) * 4
                canvas.replaceSubrange(
                    destinationStart..<destinationStart + count,
                    with: image.pixels[sourceStart..<sourceStart + count])
            }
        }
        // Transparent margins make an opaque image one with alpha.
        return make(like: image, width: width, height: height, pixels: canvas, hasAlpha: image.hasAlpha || !covered)
    }

    static func flipped(_ image: UIImage, horizontal: Bool, vertical: Bool) -> UIImage {
        let width = image.pixelWidth
        let height = image.pixelHeight
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for row in 0..<height {
            let sourceRow = vertical ? height - 1 - row : row
            for column in 0..<width {
                let sourceColumn = horizontal ? width - 1 - column : column
                let source = sourceRow * image.bytesPerRow + sourceColumn * 4
                let destination = (row * width + column) * 4
                pixels[destination] = image.pixels[source]
                pixels[destination + 1] = image.pixels[source + 1]
                pixels[destination + 2] = image.pixels[source + 2]
                pixels[destination + 3] = image.pixels[source + 3]
            }
        }
        return make(like: image, width: width, height: height, pixels: pixels, hasAlpha: image.hasAlpha)
    }

    /// The frame a still image is made of: for an animated image its first frame, with the image's format.
    static func firstFrame(of image: UIImage) -> UIImage {
        guard let first = image.images?.first else { return image }
        let still = UIImage(
            pixelWidth: first.pixelWidth, pixelHeight: first.pixelHeight, pixels: first.pixels,
            bytesPerRow: first.bytesPerRow, hasAlpha: first.hasAlpha, scale: first.scale,
            format: image.sd_imageFormat)
        still.sd_isDecoded = first.sd_isDecoded
        return still
    }

    /// The largest size inside `limit` with the image's aspect ratio (or `limit` itself when the ratio is not
    /// kept); nil when the image already fits.
    static func thumbnailSize(of image: UIImage, limit: CGSize, preserveAspectRatio: Bool) -> (width: Int, height: Int)?
    {
        let limitWidth = Int(limit.width)
        let limitHeight = Int(limit.height)
        guard limitWidth > 0, limitHeight > 0,
            image.pixelWidth > limitWidth || image.pixelHeight > limitHeight
        else { return nil }
        guard preserveAspectRatio else { return (limitWidth, limitHeight) }
        let ratio = min(Double(limitWidth) / Double(image.pixelWidth), Double(limitHeight) / Double(image.pixelHeight))
        return (
            max(1, Int((Double(image.pixelWidth) * ratio).rounded())),
            max(1, Int((Double(image.pixelHeight) * ratio).rounded()))
        )
    }

    private static func make(like image: UIImage, width: Int, height: Int, pixels: [UInt8], hasAlpha: Bool) -> UIImage {
        let result = UIImage(
            pixelWidth: width, pixelHeight: height, pixels: pixels, hasAlpha: hasAlpha,
            scale: image.scale, format: image.sd_imageFormat)
        result.sd_isDecoded = image.sd_isDecoded
        return result
    }
}
