import Foundation

/// The separator between a key and a transformer key, and between the keys of a pipeline.
let SDImageTransformerKeySeparator = "-"

/// The cache key of a transformed image: `key` with `-<transformerKey>` added before the file extension, so the
/// extension (which the disk cache keeps in the file name) stays last.
///
/// Ports `SDTransformedKeyForKey` (`SDImageTransformer.m`, 5.x):
/// - a key without extension: `key-<transformerKey>`;
/// - a key that parses as a non-file URL with an extension: the URL's path becomes `<path without
///   extension>-<transformerKey>.<ext>`, query and fragment kept (the path is percent-encoded as URL components
///   encode it, so `{` becomes `%7B`);
/// - any other key with an extension (a file path, a file URL): `<key without extension>-<transformerKey>.<ext>`.
/// A nil key gives nil.
/// At tag 5.21.5: `SDWebImage/Core/SDImageTransformer.m:19` (`SDTransformedKeyForKey`).
public func SDTransformedKeyForKey(_ key: String?, _ transformerKey: String) -> String? {
    guard let key else { return nil }
    let keyURL = URL(string: key)
    let ext = keyURL?.pathExtension ?? (key as NSString).pathExtension
    guard !ext.isEmpty else {
        return key + SDImageTransformerKeySeparator + transformerKey
    }
    if let keyURL, !keyURL.isFileURL, var components = URLComponents(url: keyURL, resolvingAgainstBaseURL: false) {
        let stem = (components.path as NSString).deletingPathExtension + SDImageTransformerKeySeparator + transformerKey
        components.path = (stem as NSString).appendingPathExtension(ext) ?? stem
        if let transformed = components.url?.absoluteString { return transformed }
    }
    // Cut the extension off by hand: NSString's path methods would also fold "file:///" into "file:/".
    let suffix = "." + ext
    let base = key.hasSuffix(suffix) ? String(key.dropLast(suffix.count)) : (key as NSString).deletingPathExtension
    return base + SDImageTransformerKeySeparator + transformerKey + suffix
}

/// The cache key of a thumbnail: `SDTransformedKeyForKey(key, "Thumbnail({w,h},p)")`, with the size printed with
/// six decimals and `p` 1 or 0 for "preserve aspect ratio". Ports `SDThumbnailedKeyForKey` (5.7.0 on).
/// At tag 5.21.5: `SDWebImage/Core/SDImageTransformer.m:42` (`SDThumbnailedKeyForKey`).
public func SDThumbnailedKeyForKey(_ key: String?, _ thumbnailPixelSize: CGSize, _ preserveAspectRatio: Bool) -> String?
{
    let size = String(format: "{%f,%f}", Double(thumbnailPixelSize.width), Double(thumbnailPixelSize.height))
    return SDTransformedKeyForKey(key, "Thumbnail(\(size),\(preserveAspectRatio ? 1 : 0))")
}
