import Foundation

/// What an awaited load returns: the image, its data when known, where it came from, and the URL it was
/// loaded for.
///
/// Port addition: SDWebImage 4.4.8 has only completion blocks
/// (`SDInternalCompletionBlock` in `SDWebImageManager.h`), whose finished call carries the same values.
/// At tag 4.4.8: `SDWebImage/SDWebImageManager.h:123` (`SDInternalCompletionBlock`).
public struct SDWebImageLoadResult: Sendable {
    /// The loaded (and, when the delegate transforms, transformed) image.
    public let image: UIImage
    /// The image's bytes: the downloaded data, or the disk data when the cache read it; nil for a memory hit
    /// without `QueryDataWhenInMemory`.
    public let data: Data?
    /// Where the image came from (FAQ-05): none = downloaded, disk, memory.
    public let cacheType: SDImageCacheType
    /// The URL the load was made for.
    public let url: URL?

    /// A result from its parts.
    public init(image: UIImage, data: Data?, cacheType: SDImageCacheType, url: URL?) {
        self.image = image
        self.data = data
        self.cacheType = cacheType
        self.url = url
    }
}
