import Foundation

/// Decodes the data a loader received the way the 5.x context and options ask (V5-01, V5-04).
///
/// Ports `SDImageLoaderDecodeImageData` (`SDImageLoader.m`, 5.x). Steps:
/// 1. the context's `imageCoder`, else `SDWebImageCodersManager.shared`, decodes the data (empty or undecodable data
///    throws `SDWebImageV5Error.badImageData` saying why);
/// 2. `decodeFirstFrameOnly` keeps the first frame of an animated image, as a still image;
/// 3. `imageThumbnailPixelSize` shrinks the image to fit that size (aspect ratio kept unless
///    `imagePreserveAspectRatio` is false); images already smaller are left alone;
/// 4. the scale is the context's `imageScaleFactor` when ≥ 1, else the `@2x`/`@3x` rule on the cache key;
/// 5. unless `avoidDecodeImage` is set (or `shouldDecompress` is false, or the image is animated), the image is
///    force-decoded, and with `scaleDownLargeImages` scaled down to the 60 MB limit.
///
/// The cache key is the context's `cacheKeyFilter` applied to the URL, else the URL's absolute string.
public func SDImageLoaderDecodeImageData(_ data: Data, _ url: URL, _ options: SDWebImageV5Options,
                                         _ context: SDWebImageContext?, shouldDecompress: Bool = true) throws -> UIImage {
    let key = context?.cacheKeyFilter?.cacheKey(for: url) ?? url.absoluteString
    return try SDImageV5Decoding.decode(data, key: key, options: options, context: context,
                                        shouldDecompress: shouldDecompress)
}

/// The decoding steps shared by `SDImageLoaderDecodeImageData` and `SDImageCacheDecodeImageData`.
enum SDImageV5Decoding {
    static func decode(_ data: Data, key: String, options: SDWebImageV5Options, context: SDWebImageContext?,
                       shouldDecompress: Bool) throws -> UIImage {
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
           let size = SDImagePixelOperations.thumbnailSize(of: image, limit: limit,
                                                           preserveAspectRatio: context?.preserveAspectRatio ?? true) {
            image = SDImagePixelOperations.mapFrames(of: image) {
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
