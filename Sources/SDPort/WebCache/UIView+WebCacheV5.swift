import Foundation

/// The 5.x entry of the view binding: a view load with 5.x options and a 5.x context (V5-10).
///
/// Ports `-[UIView sd_internalSetImageWithURL:placeholderImage:options:context:setImageBlock:progress:completed:]`
/// (`UIView+WebCache.m`, 5.x) on the same body as the 4.x entry (`sd_internalSetImage(with:...operationKey:...)`):
/// operation key (the context's `setImageOperationKey`, else the class name), placeholder, indicators, progress,
/// then the manager's 5.x `loadImage(with:options:context:...)`.
///
/// How a view knows which rule applies: by the entry a load came through, that is by the type of its options. A
/// load started here with `SDWebImageV5Options` follows 5.x's transition rule; one started with 4.4.8's
/// `SDWebImageOptions` (every `sd_setImage` of the port's views) keeps 4.4.8's. The rules, at the end of a finished
/// load with an image:
/// - 4.4.8: the transition runs for `ForceTransition` or a download (`cacheType == .none`), never for a cache hit.
/// - 5.x (5.9.0 and later; 5.0–5.8 keep 4.4.8's rule): the same, and also for a disk hit, unless the disk was read synchronously (`QueryMemoryDataSync` or
///   `QueryDiskDataSync`), because then the image is there before the view was ever shown without it.
/// As everything in the 5.x flow, a cancelled load (for example by a newer load on the same view) answers once
/// with `SDWebImageErrorCancelled` (V5-06). The context's `customManager` chooses the manager (the 4.x entry's
/// `SDWebImageExternalCustomManagerKey` does not apply here).
/// At tag 5.21.5: `SDWebImage/Core/UIView+WebCache.m:58` (`-sd_internalSetImageWithURL:placeholderImage:options:context:setImageBlock:progress:completed:`).
extension UIView {
    /// Loads `url` into this view the 5.x way; see the extension's documentation. Returns the manager's operation
    /// (nil for a nil URL).
    @discardableResult
    public func sd_internalSetImage(with url: URL?, placeholderImage: UIImage?, options: SDWebImageV5Options,
                                    context: SDWebImageContext?, setImageBlock: SDSetImageBlock?,
                                    progress: SDImageLoaderProgressBlock?,
                                    completed: SDExternalCompletionBlock?) -> SDWebImageCombinedOperation? {
        let internalSetImageBlock = Self.internalSetImageBlock(from: setImageBlock)
        let completion = Self.viewLoadCompletion(from: completed)
        // The view's own flags, which both option sets have, read by the shared body in their 4.x form.
        var viewOptions: SDWebImageOptions = []
        if options.contains(.delayPlaceholder) { viewOptions.insert(.delayPlaceholder) }
        if options.contains(.avoidAutoSetImage) { viewOptions.insert(.avoidAutoSetImage) }
        if options.contains(.forceTransition) { viewOptions.insert(.forceTransition) }
        let operationKey = context?.value(.setImageOperationKey, as: String.self)
        return sd_internalSetImage(with: url, placeholderImage: placeholderImage, options: viewOptions,
                                   operationKey: operationKey, internalSetImageBlock: internalSetImageBlock,
                                   progress: progress, completion: completion, context: nil,
                                   v5Load: SDWebImageViewV5Load(options: options, context: context))
    }

    /// 5.x's transition rule: whether a finished answer from `cacheType` is shown with the view's transition.
    static func sd_v5UsesTransition(options: SDWebImageV5Options, cacheType: SDImageCacheType, finished: Bool) -> Bool {
        guard finished else { return false }
        if options.contains(.forceTransition) { return true }
        switch cacheType {
        case .none:
            return true
        case .disk:
            return !options.contains(.queryMemoryDataSync) && !options.contains(.queryDiskDataSync)
        case .memory:
            return false
        }
    }
}
