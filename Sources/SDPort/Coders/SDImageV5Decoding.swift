import Foundation

/// The decoding steps shared by `SDImageLoaderDecodeImageData` and `SDImageCacheDecodeImageData`.
/// At tag 5.21.5: `SDWebImage/Core/SDImageLoader.m:33` (`SDImageLoaderDecodeImageData`), `SDWebImage/Core/SDImageCacheDefine.m:99` (`SDImageCacheDecodeImageData`).
enum SDImageV5Decoding {
    static func decode(
        _ data: Data, key: String, options: SDWebImageV5Options, context: SDWebImageContext?,
        shouldDecompress: Bool
    ) throws -> UIImage {
        guard !data.isEmpty else { throw SDWebImageV5Error.badImageData("the data is empty") }
        let coder: any SDWebImageCoder = context?.imageCoder ?? SDWebImageCodersManager.shared
        var image: UIImage
        do {
            if let manager = coder as? SDWebImageCodersManager {
                image = try manager.decodeImage(from: data, traceKey: key)
            } else {
                image = try coder.decodeImage(from: data)
                SDWebImageTrace.record(.decode, key: key, "context coder \(type(of: coder))")
            }
        } catch {
            throw SDWebImageV5Error.badImageData((error as? LocalizedError)?.errorDescription ?? "\(error)")
        }
        if options.contains(.decodeFirstFrameOnly) {
            image = SDImagePixelOperations.firstFrame(of: image)
        }
        if let limit = context?.thumbnailPixelSize,
            let size = SDImagePixelOperations.thumbnailSize(
                of: image, limit: limit,
                preserveAspectRatio: context?.preserveAspectRatio ?? true)
        {
            image =
                SDImagePixelOperations.mapFrames(of: image) {
                    SDImagePixelOperations.resampled($0, width: size.width, height: size.height)
                } ?? image
        }
        if let scale = context?.imageScaleFactor, scale >= 1 {
            if scale != image.scale { image = image.withScale(scale) }
        } else {
            image = SDScaledImageForKey(key, image) ?? image
        }
        if shouldDecompress && !options.contains(.avoidDecodeImage) && image.images == nil {
            var decompressData: Data? = data
            let decompressOptions = [SDWebImageCoderScaleDownLargeImagesKey: options.contains(.scaleDownLargeImages)]
            image = coder.decompressedImage(with: image, data: &decompressData, options: decompressOptions) ?? image
        }
        guard image.pixelWidth > 0, image.pixelHeight > 0 else {
            throw SDWebImageV5Error.badImageData("the image has 0 pixels")
        }
        return image
    }
}
