import Foundation

/// The async/await face of the manager (port addition; 4.4.8 and 5.x have completion blocks only).
extension SDWebImageManager {
    /// Loads the image for `url` and returns it with its data and origin, or throws.
    ///
    /// - Returns at the first finished completion (with `RefreshCached` and a cached image, that is the cached
    ///   image; the refresh goes on and updates the cache if it downloads a new image).
    /// - Throws the load's error (for example `NSURLErrorFileDoesNotExist` for a nil URL, or a blacklisted one
    ///   without `RetryFailed`),
    ///   `SDWebImageLoadError.noImage` when the load finished without an image and without an error, and
    ///   `CancellationError` when the Swift task is cancelled or the load is cancelled another way (`cancelAll`).
    ///   Cancelling the task cancels the combined operation, so the download stops too.
    ///
    /// The continuation is resumed exactly once, whichever of these happens first.
    public func loadImage(
        with url: URL?, options: SDWebImageOptions = [],
        progress: SDWebImageDownloaderProgressBlock? = nil
    ) async throws -> SDWebImageLoadResult {
        let relay = SDWebImageCancellationRelay()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<SDWebImageLoadResult, Error>) in
                let once = SDWebImageContinuationOnce(continuation)
                let operation = self.loadImage(with: url, options: options, progress: progress) {
                    image, data, error, cacheType, finished, imageURL in
                    guard finished else { return }
                    once.resume(
                        with: Self.loadResult(
                            image: image, data: data, error: error, cacheType: cacheType,
                            url: imageURL ?? url))
                }
                operation.whenCancelled { once.resume(throwing: CancellationError()) }
                relay.attach(operation)
            }
        } onCancel: {
            relay.cancelTask()
        }
    }

    /// The result a finished completion stands for.
    static func loadResult(
        image: UIImage?, data: Data?, error: Error?, cacheType: SDImageCacheType,
        url: URL?
    ) -> Result<SDWebImageLoadResult, Error> {
        if let error { return .failure(error) }
        guard let image else { return .failure(SDWebImageLoadError.noImage(url)) }
        return .success(SDWebImageLoadResult(image: image, data: data, cacheType: cacheType, url: url))
    }
}
