import Foundation

/// Ports `UIImageView+HighlightedWebCache` (4.4.8, iOS and tvOS only): load a URL into an image view's
/// `highlightedImage` (VIEW-09), under its own operation key so it runs beside the normal image's load.
/// At tag 4.4.8: `SDWebImage/UIImageView+HighlightedWebCache.m:34` (`-sd_setHighlightedImageWithURL:options:progress:completed:`).
extension UIImageView {
    /// The operation key of highlighted loads, as in the original.
    public static let sd_highlightedImageOperationKey = "UIImageViewImageOperationHighlighted"

    /// Loads `url` into `highlightedImage` (no placeholder, as in the original).
    public func sd_setHighlightedImage(
        with url: URL?, options: SDWebImageOptions = [],
        context: SDWebImageViewContext? = nil
    ) {
        sd_setHighlightedImage(with: url, options: options, context: context, progress: nil, completed: nil)
    }

    /// Loads `url` into `highlightedImage`; `completed` runs on the main actor.
    public func sd_setHighlightedImage(
        with url: URL?, options: SDWebImageOptions = [],
        context: SDWebImageViewContext? = nil,
        progress: SDWebImageDownloaderProgressBlock? = nil,
        completed: SDExternalCompletionBlock?
    ) {
        sd_internalSetImage(
            with: url, placeholderImage: nil, options: options,
            operationKey: Self.sd_highlightedImageOperationKey,
            setImageBlock: { [weak self] image, _ in self?.highlightedImage = image },
            progress: progress, completed: completed, context: context)
    }

    /// Port addition: the awaitable form of `sd_setHighlightedImage(with:...)`.
    public func sd_setHighlightedImage(
        with url: URL?, options: SDWebImageOptions = [],
        context: SDWebImageViewContext? = nil,
        progress: SDWebImageDownloaderProgressBlock? = nil
    ) async throws -> SDWebImageLoadResult {
        try await sd_internalSetImage(
            with: url, placeholderImage: nil, options: options,
            operationKey: Self.sd_highlightedImageOperationKey,
            internalSetImageBlock: { [weak self] image, _, _, _ in self?.highlightedImage = image },
            progress: progress, context: context)
    }
}
