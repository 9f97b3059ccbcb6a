import Foundation
import SDPort

/// Decodes the input as SDPort does: through `SDWebImageCodersManager` (sniffing picks the coder) and through
/// each given coder, force-decodes what comes out (scaled down or not, as the downloader would), and feeds a
/// fresh progressive coder growing prefixes of the input, then the whole input as finished, as a download does;
/// JPEG input also goes through the row-by-row scaled-down decode.
/// Anything may fail; nothing may crash, corrupt memory, or allocate past libFuzzer's `-malloc_limit_mb`.
enum DecoderHarness {
    static func run(
        _ data: Data, coders: [any SDWebImageCoder],
        progressive: [() -> any SDWebImageProgressiveCoder]
    ) {
        for coder in [SDWebImageCodersManager.shared as any SDWebImageCoder] + coders {
            guard coder.canDecode(from: data), let image = try? coder.decodeImage(from: data) else { continue }
            check(image)
            var imageData: Data? = data
            for scaleDown in [false, true] {
                if let decoded = coder.decompressedImage(
                    with: image, data: &imageData,
                    options: [SDWebImageCoderScaleDownLargeImagesKey: scaleDown])
                {
                    check(decoded)
                }
            }
        }
        // ScaleDownLargeImages decodes a large JPEG row by row straight to a smaller size (libjpeg stream in the C
        // shim). A small limit makes every image "large", so the streaming path reads every input.
        if let scaled = try? SDWebImageJPEGCoder.decodeScaledDown(from: data, limitPixels: 64) { check(scaled) }
        // Cut points from the input's own length, so a given input always decodes the same way.
        let cuts = Set([data.count / 4, data.count / 2, data.count * 3 / 4, data.count - 1].filter { $0 > 0 }).sorted()
        for make in progressive {
            let coder = make()
            guard coder.canIncrementallyDecode(from: data) else { continue }
            for cut in cuts {
                if let partial = coder.incrementallyDecodedImage(with: data.prefix(cut), finished: false) {
                    check(partial)
                }
            }
            if let final = coder.incrementallyDecodedImage(with: data, finished: true) { check(final) }
        }
    }

    /// An image that came out must be internally consistent: its bitmap holds what its size says.
    static func check(_ image: UIImage) {
        guard image.pixelWidth > 0, image.pixelHeight > 0 else { return }
        precondition(image.bytesPerRow >= image.pixelWidth * 4, "row shorter than its pixels")
        precondition(
            image.pixels.count >= image.bytesPerRow * (image.pixelHeight - 1) + image.pixelWidth * 4,
            "bitmap smaller than its size")
        for frame in image.images ?? [] { check(frame) }
    }
}
