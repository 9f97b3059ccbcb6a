import Foundation

/// Decodes data read from the disk cache the way the 5.x context and options ask.
///
/// Ports `SDImageCacheDecodeImageData` (`SDImageCacheDefine.m`, 5.x): the same steps as
/// `SDImageLoaderDecodeImageData` (context coder, first frame only, thumbnail, scale factor or the key's `@2x`/`@3x`,
/// force decoding unless `avoidDecodeImage`), with `key` the cache key the data was stored under. `shouldDecompress`
/// carries the 4.4.8 cache setting `config.shouldDecompressImages`, which 5.x replaced by the option.
/// At tag 5.21.5: `SDWebImage/Core/SDImageCacheDefine.m:99` (`SDImageCacheDecodeImageData`).
public func SDImageCacheDecodeImageData(
    _ data: Data, _ key: String, _ options: SDWebImageV5Options,
    _ context: SDWebImageContext?, shouldDecompress: Bool = true
) throws -> UIImage {
    try SDImageV5Decoding.decode(data, key: key, options: options, context: context, shouldDecompress: shouldDecompress)
}
