import Foundation

/// The async/await face of the view binding (port addition; 4.4.8 and 5.x have completion blocks only).
extension UIView {
    /// Runs `sd_internalSetImage` and waits for its finished answer: returns the image (already shown unless
    /// `AvoidAutoSetImage`), its data and origin, or throws the load's error, `SDWebImageLoadError.noImage`, or
    /// `CancellationError` when the Swift task is cancelled or the load is cancelled another way (a newer load on
    /// the same view and key, `sd_cancelCurrentImageLoad`). The continuation is resumed exactly once.
    func sd_internalSetImage(
        with url: URL?, placeholderImage: UIImage?, options: SDWebImageOptions, operationKey: String?,
        internalSetImageBlock: SDInternalSetImageBlock?, progress: SDWebImageDownloaderProgressBlock?,
        context: SDWebImageViewContext?
    ) async throws -> SDWebImageLoadResult {
        let relay = SDWebImageCancellationRelay()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<SDWebImageLoadResult, Error>) in
                let once = SDWebImageContinuationOnce(continuation)
                let operation = self.sd_internalSetImage(
                    with: url, placeholderImage: placeholderImage, options: options, operationKey: operationKey,
                    internalSetImageBlock: internalSetImageBlock, progress: progress,
                    completion: { image, data, error, cacheType, finished, imageURL in
                        guard finished else { return }
                        once.resume(
                            with: SDWebImageManager.loadResult(
                                image: image, data: data, error: error,
                                cacheType: cacheType, url: imageURL))
                    }, context: context)
                operation?.whenCancelled { once.resume(throwing: CancellationError()) }
                relay.attach(operation)
            }
        } onCancel: {
            relay.cancelTask()
        }
    }
}
