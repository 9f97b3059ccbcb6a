import Foundation

/// Decodes the data a loader received the way the 5.x context and options ask (V5-01, V5-04).
///
/// Ports `SDImageLoaderDecodeImageData` (`SDImageLoader.m`, 5.21.5; 5.0.0 has no context coder (5.6.0 on) and no
/// thumbnail (5.5.0 on), and 5.17.0 turned `avoidDecodeImage` into a force-decode policy). Steps:
/// 1. the context's `imageCoder`, else `SDWebImageCodersManager.shared`, decodes the data (empty or undecodable data
///    throws `SDWebImageV5Error.badImageData` saying why);
/// 2. `decodeFirstFrameOnly` keeps the first frame of an animated image, as a still image;
/// 3. `imageThumbnailPixelSize` shrinks the image to fit that size (aspect ratio kept unless
///    `imagePreserveAspectRatio` is false); images already smaller are left alone;
/// 4. the scale is the context's `imageScaleFactor` when ≥ 1, else the `@2x`/`@3x` rule on the cache key;
/// 5. unless `avoidDecodeImage` is set (or `shouldDecompress` is false, or the image is animated), the image is
///    force-decoded, and with `scaleDownLargeImages` scaled down to 60 MB (5.x's default limit on iOS and tvOS;
///    macOS allows more, watchOS less).
///
/// The cache key is the context's `cacheKeyFilter` applied to the URL, else the URL's absolute string.
/// At tag 5.21.5: `SDWebImage/Core/SDImageLoader.m:33` (`SDImageLoaderDecodeImageData`).
public func SDImageLoaderDecodeImageData(
    _ data: Data, _ url: URL, _ options: SDWebImageV5Options,
    _ context: SDWebImageContext?, shouldDecompress: Bool = true
) throws -> UIImage {
    let key = context?.cacheKeyFilter?.cacheKey(for: url) ?? url.absoluteString
    return try SDImageV5Decoding.decode(
        data, key: key, options: options, context: context,
        shouldDecompress: shouldDecompress)
}
