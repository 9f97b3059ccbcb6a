import Foundation

/// Ports `UIImageView+WebCache` (4.4.8): load a URL into an image view (VIEW-01).
///
/// The original's seven `sd_setImageWithURL:...` methods are two Swift methods with default arguments, one
/// without blocks and one whose `completed` block is required (so a trailing closure is the completion, as in
/// the original's `sd_setImageWithURL:completed:`), plus a `context` as 5.x's public methods take; its keys are
/// those of 4.4.8's internal `sd_internalSetImageWithURL:...context:` (this file reads
/// `SDWebImageExternalCustomManagerKey`). All go through `sd_internalSetImage` with no operation key (so the class
/// name) and the view's own setter (`image`).
/// At tag 4.4.8: `SDWebImage/UIImageView+WebCache.m:40` (`-sd_setImageWithURL:placeholderImage:options:progress:completed:`).
/// At tag 5.21.5: `SDWebImage/Core/UIImageView+WebCache.m:49` (`-sd_setImageWithURL:placeholderImage:options:context:progress:completed:`).
extension UIImageView {
    /// Loads `url` into `image`, showing `placeholderImage` meanwhile.
    public func sd_setImage(
        with url: URL?, placeholderImage: UIImage? = nil, options: SDWebImageOptions = [],
        context: SDWebImageViewContext? = nil
    ) {
        sd_setImage(
            with: url, placeholderImage: placeholderImage, options: options, context: context, progress: nil,
            completed: nil)
    }

    /// Loads `url` into `image`, showing `placeholderImage` meanwhile; `completed` runs on the main actor.
    public func sd_setImage(
        with url: URL?, placeholderImage: UIImage? = nil, options: SDWebImageOptions = [],
        context: SDWebImageViewContext? = nil, progress: SDWebImageDownloaderProgressBlock? = nil,
        completed: SDExternalCompletionBlock?
    ) {
        sd_internalSetImage(
            with: url, placeholderImage: placeholderImage, options: options, operationKey: nil,
            setImageBlock: nil, progress: progress, completed: completed, context: context)
    }

    /// Like `sd_setImage`, but the placeholder is the image the cache already has for `url`, when it has one.
    public func sd_setImageWithPreviousCachedImage(
        with url: URL?, placeholderImage: UIImage? = nil,
        options: SDWebImageOptions = [], context: SDWebImageViewContext? = nil,
        progress: SDWebImageDownloaderProgressBlock? = nil,
        completed: SDExternalCompletionBlock?
    ) {
        let manager = context?[SDWebImageExternalCustomManagerKey] as? SDWebImageManager ?? .shared
        let previous = manager.imageCache.imageFromCache(forKey: manager.cacheKey(for: url))
        sd_setImage(
            with: url, placeholderImage: previous ?? placeholderImage, options: options, context: context,
            progress: progress, completed: completed)
    }

    /// Port addition: loads `url` into `image` and returns the result (see `SDWebImageLoadResult`); cancelling
    /// the task cancels the load and throws `CancellationError`.
    public func sd_setImage(
        with url: URL?, placeholderImage: UIImage? = nil, options: SDWebImageOptions = [],
        context: SDWebImageViewContext? = nil,
        progress: SDWebImageDownloaderProgressBlock? = nil
    ) async throws -> SDWebImageLoadResult {
        try await sd_internalSetImage(
            with: url, placeholderImage: placeholderImage, options: options, operationKey: nil,
            internalSetImageBlock: nil, progress: progress, context: context)
    }

    /// Loads every URL and shows the images as an animation, each at its index, restarting the animation as
    /// frames arrive. Ports `sd_setAnimationImagesWithURLs:` (4.4.8, iOS and tvOS only).
    public func sd_setAnimationImages(with urls: [URL], context: SDWebImageViewContext? = nil) {
        sd_cancelCurrentAnimationImagesLoad()
        let manager = context?[SDWebImageExternalCustomManagerKey] as? SDWebImageManager ?? .shared
        for (index, url) in urls.enumerated() {
            let operation = manager.loadImage(with: url, options: [], progress: nil) {
                [weak self] image, _, _, _, _, _ in
                let view = self
                dispatch_main_async_safe {
                    MainActor.assumeIsolated {
                        guard let view else { return }
                        view.stopAnimating()
                        if let image {
                            var frames = view.animationImages ?? []
                            // Frames may arrive out of order: fill the gap with this one until theirs arrive.
                            while frames.count <= index { frames.append(image) }
                            frames[index] = image
                            view.animationImages = frames
                            view.setNeedsLayout()
                        }
                        view.startAnimating()
                    }
                }
            }
            sd_animationOperations[String(index)] = operation
        }
    }

    /// Cancels the loads of `sd_setAnimationImages(with:)`.
    public func sd_cancelCurrentAnimationImagesLoad() {
        for operation in sd_animationOperations.liveOperations { operation.cancel() }
        sd_animationOperations.removeAll()
    }
}
