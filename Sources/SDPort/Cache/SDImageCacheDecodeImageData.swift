import Foundation

/// Decodes data read from the disk cache the way the 5.x context and options ask.
///
/// Ports `SDImageCacheDecodeImageData` (`SDImageCacheDefine.m`, 5.21.5): the same steps as
/// `SDImageLoaderDecodeImageData` (context coder, first frame only, thumbnail, scale factor or the key's `@2x`/`@3x`,
/// force decoding unless `avoidDecodeImage`; 5.21.5 force-decodes by the context's policy, automatic by default,
/// which the port does not read), with `key` the cache key the data was stored under. Of these, 5.0.0
/// has the first frame, scale and force-decode steps (and the `animatedImageClass` step the port lacks); thumbnails
/// came in 5.5.0, the context coder in 5.6.0, and 5.17.0 turned `avoidDecodeImage` into a force-decode policy.
/// `shouldDecompress` carries the 4.4.8 cache setting `config.shouldDecompressImages`, which 5.0.0 replaced by the
/// `avoidDecodeImage` option.
/// At tag 5.21.5: `SDWebImage/Core/SDImageCacheDefine.m:99` (`SDImageCacheDecodeImageData`).
public func SDImageCacheDecodeImageData(
    _ data: Data, _ key: String, _ options: SDWebImageV5Options,
    _ context: SDWebImageContext?, shouldDecompress: Bool = true
) throws -> UIImage {
    try SDImageV5Decoding.decode(data, key: key, options: options, context: context, shouldDecompress: shouldDecompress)
}
