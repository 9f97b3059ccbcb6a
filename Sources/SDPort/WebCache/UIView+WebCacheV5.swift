import Foundation

/// The 5.x entry of the view binding: a view load with 5.x options and a 5.x context (V5-10, V5-12).
///
/// Ports `-[UIView sd_internalSetImageWithURL:placeholderImage:options:context:setImageBlock:progress:completed:]` and
/// the transition half of `-sd_setImage:imageData:options:basedOnClassOrViaCustomSetImageBlock:transition:...`
/// (`UIView+WebCache.m`, 5.21.5) as a body of its own, beside 4.4.8's
/// (`sd_internalSetImage(with:...operationKey:...)`), which stays as 4.4.8 has it. A view tells the two apart by the
/// entry a load came through, that is by the type of its options: `SDWebImageV5Options` here, 4.4.8's
/// `SDWebImageOptions` there. The steps, in 5.21.5's order:
/// 1. The operation key is the context's `setImageOperationKey`, else the class name (written into the context passed
///    down). It becomes `sd_latestOperationKey`, and the load under that key is cancelled. (5.21.5 skips the cancel
///    for `AvoidAutoCancelImage`, which the port's 5.x options do not have.)
/// 2. The manager is the context's `customManager` (taken out of the context), else the shared one.
/// 3. Unless `DelayPlaceholder`: with the manager's cache's weak memory cache on, the load's key is looked up in
///    memory first, so an image only the weak table (UIKit only in 5.21.5) still knows goes back into the cache
///    before the placeholder replaces the view's image, which may be its last strong reference (5.12.0; V5-12).
///    Then the placeholder.
/// 4. A nil URL stops the indicator and completes with `InvalidURL` (1000); 4.4.8's entry uses code -1.
/// 5. The progress (when the view has one) is reset, the indicator started, and the manager's 5.x `loadImage` asked.
///    Its answer moves to the main thread through `SDCallbackQueue.main`, at once when it is already there (a memory
///    hit without `queryMemoryData`, and with no context `callbackQueue`, is answered before `loadImage` returns, as
///    in 5.21.5).
/// 6. The operation is stored under the key without cancelling what the key holds then (5.18.0; V5-12): a load
///    that this load's synchronous completion started on the same view keeps running. As in 5.21.5 it is only
///    replaced in the table, not cancelled.
///
/// At the end of a finished load with an image, the transition rule is 5.x's (`sd_v5UsesTransition`): 4.4.8's
/// (ForceTransition or a download), and also a disk hit unless `QueryMemoryDataSync` or `QueryDiskDataSync` is set
/// (5.9.0 and later; 5.0–5.8 keep 4.4.8's rule). Each step of the
/// transition first checks that `sd_latestOperationKey` is still the key it was when the transition began; when
/// it is not, the step does nothing, so a newer load under another key is not overwritten by this one (5.9.4;
/// V5-12). 5.8.4 also cleared the key on `sd_cancelCurrentImageLoad`; 5.18.0 dropped that, so in 5.21.5, and here,
/// a cancel followed by an image set by hand does not stop a transition already under way, nor does a newer load
/// under the same key. 4.x loads neither set the key nor check it.
///
/// Differences from 5.21.5, because the port's views are main-actor isolated: a context `callbackQueue` applies to the
/// manager's completion, but the view's steps always run on the main thread; the view's progress object is updated
/// through the main queue (5.21.5 updates it on the queue the loader reports from and sends only the indicator's
/// progress to the main queue); `sd_imageURL` is one URL per view (5.18.0 and later keep one per operation key).
/// 4.4.8's activity indicator (`sd_setShowActivityIndicatorView`), which 5.x removed, is not shown by 5.x loads;
/// `sd_imageIndicator` is.
/// At tag 5.21.5: `SDWebImage/Core/UIView+WebCache.m:58` (`-sd_internalSetImageWithURL:placeholderImage:options:context:setImageBlock:progress:completed:`), `SDWebImage/Core/UIView+WebCache.m:296` (`-sd_setImage:imageData:options:basedOnClassOrViaCustomSetImageBlock:transition:cacheType:imageURL:callback:`).
extension UIView {
    /// The operation key of the latest 5.x load on this view; nil before the first (5.x's `sd_latestOperationKey`).
    public var sd_latestOperationKey: String? { sd_latestOperationKeyStorage }

    /// Cancels the load under `sd_latestOperationKey` (5.x's `sd_cancelLatestImageLoad`). As in 5.21.5 the key
    /// stays, so a transition already under way still runs.
    public func sd_cancelLatestImageLoad() {
        sd_cancelImageLoadOperation(withKey: sd_latestOperationKeyStorage)
    }

    /// Loads `url` into this view the 5.x way; see the extension's documentation. Returns the manager's operation
    /// (nil for a nil URL).
    @discardableResult
    public func sd_internalSetImage(
        with url: URL?, placeholderImage: UIImage?, options: SDWebImageV5Options,
        context: SDWebImageContext?, setImageBlock: SDSetImageBlock?,
        progress: SDImageLoaderProgressBlock?,
        completed: SDExternalCompletionBlock?
    ) -> SDWebImageCombinedOperation? {
        sd_internalSetImage(
            with: url, placeholderImage: placeholderImage, options: options, context: context,
            internalSetImageBlock: Self.internalSetImageBlock(from: setImageBlock), progress: progress,
            completion: Self.viewLoadCompletion(from: completed))
    }

    /// The body of the 5.x entry, with the full set-image block and completion.
    @discardableResult
    func sd_internalSetImage(
        with url: URL?, placeholderImage placeholder: UIImage?, options: SDWebImageV5Options,
        context: SDWebImageContext?, internalSetImageBlock setImageBlock: SDInternalSetImageBlock?,
        progress progressBlock: SDImageLoaderProgressBlock?,
        completion: SDWebImageViewLoadCompletion?
    ) -> SDWebImageCombinedOperation? {
        var context = context ?? [:]
        let validOperationKey: String
        if let key = context.value(.setImageOperationKey, as: String.self) {
            validOperationKey = key
        } else {
            validOperationKey = sd_defaultOperationKey
            context[.setImageOperationKey] = validOperationKey
        }
        sd_latestOperationKeyStorage = validOperationKey
        sd_cancelImageLoadOperation(withKey: validOperationKey)
        sd_storedImageURL = url
        SDWebImageTrace.record(
            .viewSetImage, key: url?.absoluteString, "\(type(of: self)), key \(validOperationKey), 5.x")

        let manager = context.value(.customManager, as: SDWebImageManager.self) ?? .shared
        context[.customManager] = nil
        if !options.contains(.delayPlaceholder) {
            if manager.imageCache.config.shouldUseWeakMemoryCache {
                // Only for its side effect: a hit in the weak table goes back into the memory cache, so the query
                // below still finds the image after the placeholder has let go of it. The result is not used.
                _ = manager.imageCache.imageFromMemoryCache(forKey: manager.cacheKey(for: url, context: context))
            }
            sd_setImage(
                placeholder, imageData: nil, setImageBlock: setImageBlock, transition: nil, cacheType: .none,
                imageURL: url, isLoadedImage: false)
        }

        guard let url else {
            sd_imageIndicator?.stopAnimatingIndicator()
            completion?(nil, nil, SDWebImageV5Error.invalidURL(nil), .none, true, nil)
            return nil
        }

        let imageProgress = sd_storedImageProgress
        if let imageProgress { UIView.sd_update(imageProgress, total: 0, completed: 0) }
        let indicator = sd_imageIndicator
        indicator?.startAnimatingIndicator()
        let combinedProgressBlock: SDImageLoaderProgressBlock = { receivedSize, expectedSize, targetURL in
            let fraction = expectedSize != 0 ? Double(receivedSize) / Double(expectedSize) : 0
            let clamped = min(max(fraction, 0), 1)
            // Through the main queue, in order: a view's progress has one writer (see `sd_update`).
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    if let imageProgress {
                        UIView.sd_update(imageProgress, total: Int64(expectedSize), completed: Int64(receivedSize))
                    }
                    indicator?.updateIndicatorProgress(clamped)
                }
            }
            progressBlock?(receivedSize, expectedSize, targetURL)
        }
        let answer: SDInternalCompletionBlock = { [weak self] image, data, error, cacheType, finished, _ in
            let view = self
            SDCallbackQueue.main.async {
                MainActor.assumeIsolated {
                    view?.sd_finishV5Load(
                        image: image, data: data, error: error, cacheType: cacheType,
                        finished: finished, requestedURL: url, placeholder: placeholder,
                        options: options, setImageBlock: setImageBlock, completion: completion,
                        imageProgress: imageProgress)
                }
            }
        }
        let operation = manager.loadImage(
            with: url, options: options, context: context, progress: combinedProgressBlock,
            completed: answer)
        // Stored, not cancelling what the key holds now (5.18.0): with no `AvoidAutoCancelImage` in the port, that can
        // only be a load started from inside this load's own synchronous completion, which must survive this call.
        sd_operationDictionary[validOperationKey] = operation
        return operation
    }

    /// The manager answered a 5.x load.
    private func sd_finishV5Load(
        image: UIImage?, data: Data?, error: Error?, cacheType: SDImageCacheType,
        finished: Bool, requestedURL: URL, placeholder: UIImage?, options: SDWebImageV5Options,
        setImageBlock: SDInternalSetImageBlock?, completion: SDWebImageViewLoadCompletion?,
        imageProgress: Progress?
    ) {
        if let imageProgress, finished, error == nil,
            imageProgress.totalUnitCount == 0, imageProgress.completedUnitCount == 0
        {
            UIView.sd_update(
                imageProgress, total: SDWebImageProgressUnitCountUnknown,
                completed: SDWebImageProgressUnitCountUnknown)
        }
        if finished {
            sd_imageIndicator?.stopAnimatingIndicator()
        }
        let shouldCallCompletion = finished || options.contains(.avoidAutoSetImage)
        let shouldNotSetImage =
            (image != nil && options.contains(.avoidAutoSetImage))
            || (image == nil && !options.contains(.delayPlaceholder))
        let callCompletion: @MainActor () -> Void = {
            if !shouldNotSetImage { self.setNeedsLayout() }
            if shouldCallCompletion {
                completion?(image, data, error, cacheType, finished, requestedURL)
            }
        }
        guard !shouldNotSetImage else {
            callCompletion()
            return
        }
        let targetImage = image ?? placeholder
        let targetData = image != nil ? data : nil
        let transition =
            UIView.sd_v5UsesTransition(options: options, cacheType: cacheType, finished: finished)
            ? sd_imageTransition : nil
        // 5.21.5's guard: the view still has a latest key, and it is the one the transition began under.
        let originalOperationKey = sd_latestOperationKeyStorage
        sd_setImage(
            targetImage, imageData: targetData, setImageBlock: setImageBlock, transition: transition,
            cacheType: cacheType, imageURL: requestedURL, isLoadedImage: true,
            isCurrent: {
                guard let latest = self.sd_latestOperationKeyStorage else { return false }
                return latest == originalOperationKey
            })
        // 5.x calls the completion once the transition is scheduled, not when it ends (no `WaitTransition` here).
        callCompletion()
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
