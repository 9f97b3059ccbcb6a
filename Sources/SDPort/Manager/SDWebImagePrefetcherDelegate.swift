import Foundation

/// Told about each prefetched URL and about the end of a prefetch (MGR-14).
///
/// Ports `SDWebImagePrefetcherDelegate` (`SDWebImagePrefetcher.h`, 4.4.8). Both methods are `@optional` in the
/// original; here they have empty default implementations. They are called on the manager's completion queue
/// (the main queue by default), as in the original.
/// At tag 4.4.8: `SDWebImage/SDWebImagePrefetcher.h:14` (`SDWebImagePrefetcherDelegate`).
public protocol SDWebImagePrefetcherDelegate: AnyObject, Sendable {
    /// One URL finished loading (with or without an image); `finishedCount` of `totalCount` are done.
    func imagePrefetcher(
        _ imagePrefetcher: SDWebImagePrefetcher, didPrefetchURL imageURL: URL?,
        finishedCount: Int, totalCount: Int)
    /// Every URL finished; `totalCount` is the number that produced an image, `skippedCount` those that did not.
    func imagePrefetcher(
        _ imagePrefetcher: SDWebImagePrefetcher, didFinishWithTotalCount totalCount: Int,
        skippedCount: Int)
}

extension SDWebImagePrefetcherDelegate {
    public func imagePrefetcher(
        _ imagePrefetcher: SDWebImagePrefetcher, didPrefetchURL imageURL: URL?,
        finishedCount: Int, totalCount: Int
    ) {}
    public func imagePrefetcher(
        _ imagePrefetcher: SDWebImagePrefetcher, didFinishWithTotalCount totalCount: Int,
        skippedCount: Int
    ) {}
}
