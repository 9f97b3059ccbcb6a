import Foundation

/// A view load's completion: the image (nil on failure), the error, where the image came from, and the URL that
/// was asked for. Called on the main actor. Ports `SDExternalCompletionBlock` (`SDWebImageManager.h`, 4.4.8).
/// At tag 4.4.8: `SDWebImage/SDWebImageManager.h:121` (`SDExternalCompletionBlock`).
public typealias SDExternalCompletionBlock =
    @MainActor @Sendable (
        _ image: UIImage?, _ error: Error?,
        _ cacheType: SDImageCacheType, _ imageURL: URL?
    ) -> Void

/// Replaces the view's own way of showing an image. Ports `SDSetImageBlock` (`UIView+WebCache.h`, 4.4.8).
/// At tag 4.4.8: `SDWebImage/UIView+WebCache.h:26` (`SDSetImageBlock`).
public typealias SDSetImageBlock = @MainActor @Sendable (_ image: UIImage?, _ imageData: Data?) -> Void

/// The full form of `SDSetImageBlock` the view uses inside. Ports `SDInternalSetImageBlock` (4.4.8).
/// At tag 4.4.8: `SDWebImage/UIView+WebCache.h:27` (`SDInternalSetImageBlock`).
public typealias SDInternalSetImageBlock =
    @MainActor @Sendable (
        _ image: UIImage?, _ imageData: Data?,
        _ cacheType: SDImageCacheType, _ imageURL: URL?
    ) -> Void

/// The view's internal completion, with the data and the finished flag (5.x's view completion has both); the
/// async faces use it.
typealias SDWebImageViewLoadCompletion =
    @MainActor @Sendable (
        _ image: UIImage?, _ data: Data?, _ error: Error?,
        _ cacheType: SDImageCacheType, _ finished: Bool,
        _ imageURL: URL?
    ) -> Void

/// Extra settings for one view load, by key. Ports the `context` dictionary of 4.4.8's `sd_internalSetImage`
/// (values must be `Sendable` here).
/// At tag 4.4.8: `SDWebImage/UIView+WebCache.m:74` (`-sd_internalSetImageWithURL:placeholderImage:options:operationKey:internalSetImageBlock:progress:completed:context:`).
public typealias SDWebImageViewContext = [String: any Sendable]

/// Context key: the `SDWebImageManager` to load with instead of `SDWebImageManager.shared`
/// (`SDWebImageExternalCustomManagerKey`, `UIView+WebCache.m`, 4.4.8).
/// At tag 4.4.8: `SDWebImage/UIView+WebCache.m:14` (`SDWebImageExternalCustomManagerKey`).
public let SDWebImageExternalCustomManagerKey = "externalCustomManager"

/// The unit count a view's progress gets when a load finished with no error and no progress reported (a cache
/// hit). Ports `SDWebImageProgressUnitCountUnknown` (4.4.8).
/// At tag 4.4.8: `SDWebImage/UIView+WebCache.m:16` (`SDWebImageProgressUnitCountUnknown`).
public let SDWebImageProgressUnitCountUnknown: Int64 = 1

/// The error of a load started with a nil URL (VIEW-05): `SDWebImageErrorDomain`, code -1, as 4.4.8 makes it.
/// At tag 4.4.8: `SDWebImage/UIView+WebCache.m:74` (`-sd_internalSetImageWithURL:placeholderImage:options:operationKey:internalSetImageBlock:progress:completed:context:`).
public let SDWebImageNilURLErrorDescription = "Trying to load a nil url"

/// Ports `UIView+WebCache` (4.4.8): the one function every `sd_setImage(with:...)` of every view goes through
/// (VIEW-01 … VIEW-08), and the state it keeps on the view.
///
/// Differences from the original, all because views here are main-actor isolated:
/// - the placeholder is set synchronously (the original hops with `dispatch_main_async_safe`, which on the main
///   queue is also synchronous);
/// - the manager's completion is moved to the main queue with `dispatch_main_async_safe` before it touches the
///   view: 4.4.8's manager always answers on the main queue, but the port's manager can be given another
///   `completionQueue`;
/// - besides 4.4.8's iOS/tvOS activity indicator (`sd_setShowActivityIndicatorView`, VIEW-10) a view may carry 5.x's
///   `SDWebImageIndicator` (UIKit and AppKit only in 5.x; `sd_imageIndicator`, VIEW-07), which gets progress and
///   stops only when finished;
/// - the group of `SDWebImageInternalSetImageGroupKey` comes with its "wait for the group" switch in one object
///   (`SDWebImageInternalSetImageGroup`), since Linux's dispatch groups carry no associated objects;
/// - a 5.x `setImageOperationKey` in the context is honoured (V5-01); 4.4.8 has no such key.
/// At tag 4.4.8: `SDWebImage/UIView+WebCache.m:74` (`-sd_internalSetImageWithURL:placeholderImage:options:operationKey:internalSetImageBlock:progress:completed:context:`), `SDWebImage/UIView+WebCache.m:227` (`-sd_setImage:imageData:basedOnClassOrViaCustomSetImageBlock:transition:cacheType:imageURL:`).
/// At tag 5.21.5: `SDWebImage/Core/UIView+WebCache.m:58` (`-sd_internalSetImageWithURL:placeholderImage:options:context:setImageBlock:progress:completed:`).
extension UIView {
    /// The URL of the last load started on this view (VIEW-03); nil after a load with a nil URL.
    public var sd_imageURL: URL? { sd_storedImageURL }

    /// The progress of the current load (VIEW-03): total = expected bytes, completed = received bytes; both set
    /// to `SDWebImageProgressUnitCountUnknown` when a load finished with no error and no progress reported (a
    /// failed load keeps 0 and 0, as in 4.4.8). Created on first use.
    public var sd_imageProgress: Progress {
        get {
            if let progress = sd_storedImageProgress { return progress }
            let progress = Progress(parent: nil, userInfo: nil)
            sd_storedImageProgress = progress
            return progress
        }
        set { sd_storedImageProgress = newValue }
    }

    /// The transition applied when a load finishes (VIEW-08); nil, the default, means none.
    public var sd_imageTransition: SDWebImageTransition? {
        get { sd_storedImageTransition }
        set { sd_storedImageTransition = newValue }
    }

    /// The indicator shown while loading (VIEW-07, 5.x); setting it moves its view into this one.
    public var sd_imageIndicator: (any SDWebImageIndicator)? {
        get { sd_storedImageIndicator }
        set {
            sd_storedImageIndicator?.indicatorView.removeFromSuperview()
            sd_storedImageIndicator = newValue
            if let newValue { addSubview(newValue.indicatorView) }
        }
    }

    /// Loads `url` into this view (VIEW-01): cancels the load running under `operationKey` (default: the
    /// context's `SDWebImageContextOption.setImageOperationKey` string, as 5.x, then the view's class name), shows
    /// `placeholderImage` unless `DelayPlaceholder`, starts the indicators, loads through the manager
    /// (`context[SDWebImageExternalCustomManagerKey]` or the shared one), and when the manager answers sets, with
    /// `setImageBlock` or the view's own setter, the image (unless `AvoidAutoSetImage`) or, when there is none, the
    /// placeholder (only under `DelayPlaceholder`), and calls `completed` (on the finished answer, or on every answer
    /// under `AvoidAutoSetImage`) (VIEW-04 … VIEW-06). A
    /// `context[SDWebImageInternalSetImageGroupKey]` group is entered before each image set, and may hold the
    /// completion back until it is left (VIEW-10).
    public func sd_internalSetImage(
        with url: URL?, placeholderImage: UIImage?, options: SDWebImageOptions,
        operationKey: String?, setImageBlock: SDSetImageBlock?,
        progress: SDWebImageDownloaderProgressBlock?,
        completed: SDExternalCompletionBlock?, context: SDWebImageViewContext? = nil
    ) {
        let internalSetImageBlock = Self.internalSetImageBlock(from: setImageBlock)
        let completion = Self.viewLoadCompletion(from: completed)
        sd_internalSetImage(
            with: url, placeholderImage: placeholderImage, options: options, operationKey: operationKey,
            internalSetImageBlock: internalSetImageBlock, progress: progress, completion: completion,
            context: context)
    }

    /// The public set-image block as the body's internal one (which also gets the cache type and URL).
    static func internalSetImageBlock(from setImageBlock: SDSetImageBlock?) -> SDInternalSetImageBlock? {
        guard let setImageBlock else { return nil }
        return { image, imageData, _, _ in setImageBlock(image, imageData) }
    }

    /// The public completion as the body's internal one (which also gets the data and `finished`).
    static func viewLoadCompletion(from completed: SDExternalCompletionBlock?) -> SDWebImageViewLoadCompletion? {
        guard let completed else { return nil }
        return { image, _, error, cacheType, _, imageURL in completed(image, error, cacheType, imageURL) }
    }

    /// The body of `sd_internalSetImage`; returns the manager's operation (nil for a nil URL).
    @discardableResult
    func sd_internalSetImage(
        with url: URL?, placeholderImage placeholder: UIImage?, options: SDWebImageOptions,
        operationKey: String?, internalSetImageBlock setImageBlock: SDInternalSetImageBlock?,
        progress progressBlock: SDWebImageDownloaderProgressBlock?,
        completion: SDWebImageViewLoadCompletion?,
        context: SDWebImageViewContext?
    ) -> SDWebImageCombinedOperation? {
        // An explicit key wins: 5.x's button category writes its per-state key over the caller's context entry.
        let validOperationKey =
            operationKey
            ?? context?[SDWebImageContextOption.setImageOperationKey.rawValue] as? String
            ?? sd_defaultOperationKey
        sd_cancelImageLoadOperation(withKey: validOperationKey)
        sd_storedImageURL = url
        SDWebImageTrace.record(.viewSetImage, key: url?.absoluteString, "\(type(of: self)), key \(validOperationKey)")

        let setImageGroup = SDWebImageInternalSetImageGroup.from(context)
        if !options.contains(.delayPlaceholder) {
            // Left by the set-image block (4.4.8 leaves the leaving to whoever passed the group).
            setImageGroup?.group.enter()
            sd_setImage(
                placeholder, imageData: nil, setImageBlock: setImageBlock, transition: nil,
                cacheType: .none, imageURL: url, isLoadedImage: false)
        }

        guard let url else {
            sd_removeActivityIndicator()
            sd_imageIndicator?.stopAnimatingIndicator()
            let error = NSError(
                domain: SDWebImageErrorDomain, code: -1,
                userInfo: [NSLocalizedDescriptionKey: SDWebImageNilURLErrorDescription])
            completion?(nil, nil, error, .none, true, url)
            return nil
        }

        if sd_showActivityIndicatorView {
            sd_addActivityIndicator()
        }
        let indicator = sd_imageIndicator
        indicator?.startAnimatingIndicator()
        let imageProgress = sd_imageProgress
        UIView.sd_update(imageProgress, total: 0, completed: 0)

        let manager = context?[SDWebImageExternalCustomManagerKey] as? SDWebImageManager ?? .shared
        let combinedProgressBlock: SDWebImageDownloaderProgressBlock = { receivedSize, expectedSize, targetURL in
            let fraction = expectedSize != 0 ? Double(receivedSize) / Double(expectedSize) : 0
            let clamped = min(max(fraction, 0), 1)
            // The original updates the progress from the download's queue; here it goes through the main queue,
            // in order, so a view's progress has one writer (see `sd_update(_:total:completed:)`).
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    UIView.sd_update(imageProgress, total: Int64(expectedSize), completed: Int64(receivedSize))
                    indicator?.updateIndicatorProgress(clamped)
                }
            }
            progressBlock?(receivedSize, expectedSize, targetURL)
        }

        let answer: SDInternalCompletionBlock = { [weak self] image, data, error, cacheType, finished, imageURL in
            let view = self
            // The manager may deliver on another queue than main (its `completionQueue`); views live on main.
            dispatch_main_async_safe {
                MainActor.assumeIsolated {
                    view?.sd_finishLoad(
                        image: image, data: data, error: error, cacheType: cacheType, finished: finished,
                        imageURL: imageURL, requestedURL: url, placeholder: placeholder, options: options,
                        setImageBlock: setImageBlock, completion: completion,
                        imageProgress: imageProgress, indicator: indicator,
                        setImageGroup: setImageGroup)
                }
            }
        }
        let operation = manager.loadImage(
            with: url, options: options, progress: combinedProgressBlock, completed: answer)
        sd_setImageLoadOperation(operation, forKey: validOperationKey)
        return operation
    }

    /// The manager answered: apply VIEW-06's rules.
    private func sd_finishLoad(
        image: UIImage?, data: Data?, error: Error?, cacheType: SDImageCacheType, finished: Bool,
        imageURL: URL?, requestedURL: URL, placeholder: UIImage?, options: SDWebImageOptions,
        setImageBlock: SDInternalSetImageBlock?, completion: SDWebImageViewLoadCompletion?,
        imageProgress: Progress, indicator: (any SDWebImageIndicator)?,
        setImageGroup: SDWebImageInternalSetImageGroup?
    ) {
        // 4.4.8 (iOS and tvOS, `SD_UIKIT`) takes its activity indicator away on every answer, partial ones included.
        sd_removeActivityIndicator()
        if finished {
            indicator?.stopAnimatingIndicator()
        }
        // A load that never reported progress (a cache hit) still ends as complete.
        if finished && error == nil && imageProgress.totalUnitCount == 0 && imageProgress.completedUnitCount == 0 {
            UIView.sd_update(
                imageProgress, total: SDWebImageProgressUnitCountUnknown,
                completed: SDWebImageProgressUnitCountUnknown)
        }
        let shouldCallCompletion = finished || options.contains(.avoidAutoSetImage)
        // Leave the view alone when the caller sets the image itself, or when there is nothing to show and the
        // placeholder is already there.
        let shouldNotSetImage =
            (image != nil && options.contains(.avoidAutoSetImage))
            || (image == nil && !options.contains(.delayPlaceholder))

        let finish: @MainActor @Sendable () -> Void = {
            if !shouldNotSetImage { self.setNeedsLayout() }
            if shouldCallCompletion {
                completion?(image, data, error, cacheType, finished, requestedURL)
            }
        }
        guard !shouldNotSetImage else {
            finish()
            return
        }
        // An image, or (no image and DelayPlaceholder) the placeholder, shown only now.
        let targetImage = image ?? placeholder
        let targetData = image != nil ? data : nil
        let useTransition = finished && (options.contains(.forceTransition) || cacheType == .none)
        setImageGroup?.group.enter()
        sd_setImage(
            targetImage, imageData: targetData, setImageBlock: setImageBlock,
            transition: useTransition ? sd_imageTransition : nil, cacheType: cacheType,
            imageURL: imageURL, isLoadedImage: true)
        if let setImageGroup, setImageGroup.notifiesCompletion {
            // The set-image block asked for the completion to wait until it has left the group.
            setImageGroup.group.notify(queue: .main) {
                MainActor.assumeIsolated { finish() }
            }
        } else {
            finish()
        }
    }

    /// Shows `image` through `setImageBlock`, or the view's own setter (an image view's `image`, a button's
    /// normal-state image), inside `transition` when there is one. `isCurrent` is 5.21.5's guard, which each step of
    /// the transition asks first (the 5.x binding passes it; 4.4.8's steps run unguarded).
    func sd_setImage(
        _ image: UIImage?, imageData: Data?, setImageBlock: SDInternalSetImageBlock?,
        transition: SDWebImageTransition?, cacheType: SDImageCacheType, imageURL: URL?,
        isLoadedImage: Bool, isCurrent: (@MainActor @Sendable () -> Bool)? = nil
    ) {
        let finalSetImageBlock: SDInternalSetImageBlock?
        if let setImageBlock {
            finalSetImageBlock = setImageBlock
        } else if let imageView = self as? UIImageView {
            finalSetImageBlock = { image, _, _, _ in imageView.image = image }
        } else if let button = self as? UIButton {
            finalSetImageBlock = { image, _, _, _ in button.setImage(image, for: .normal) }
        } else {
            finalSetImageBlock = nil
        }
        let display: @MainActor @Sendable () -> Void = {
            finalSetImageBlock?(image, imageData, cacheType, imageURL)
            if isLoadedImage {
                SDWebImageTrace.record(
                    .viewDisplay, key: imageURL?.absoluteString,
                    image.map { "\($0.pixelWidth)x\($0.pixelHeight) set" } ?? "placeholder set")
            }
        }
        guard let transition else {
            display()
            return
        }
        let stepRuns = isCurrent ?? { true }
        // As UIKit: a zero-length transition runs `prepares`; in its completion, the real one sets the image and
        // runs `animations`; its completion is the transition's.
        UIView.transition(
            with: self, duration: 0, options: [],
            animations: {
                guard stepRuns() else { return }
                transition.prepares?(self, image, imageData, cacheType, imageURL)
            },
            completion: { _ in
                UIView.transition(
                    with: self, duration: transition.duration, options: transition.animationOptions,
                    animations: {
                        guard stepRuns() else { return }
                        if !transition.avoidAutoSetImage { display() }
                        transition.animations?(self, image)
                    },
                    completion: { finished in
                        guard stepRuns() else { return }
                        transition.completion?(finished)
                    })
            })
    }

    /// Sets a progress's counts. Foundation on Linux traps when `totalUnitCount` goes from a positive value
    /// straight to 0 (its fraction arithmetic divides by the old total), so that change passes through -1
    /// (indeterminate) first. Called on the main actor only, so the check and the sets cannot interleave.
    static func sd_update(_ progress: Progress, total: Int64, completed: Int64) {
        if total == 0 && progress.totalUnitCount > 0 {
            progress.totalUnitCount = -1
        }
        progress.totalUnitCount = total
        progress.completedUnitCount = completed
    }

    /// Cancels the load running under this view's class name (VIEW-09).
    public func sd_cancelCurrentImageLoad() {
        sd_cancelImageLoadOperation(withKey: sd_defaultOperationKey)
    }

    /// The operation key when none is given: `NSStringFromClass([self class])` (`UIView+WebCache.m:82,209`). For
    /// UIKit's own classes that is the bare name ("UIImageView"), which the port's stand-ins keep; for a Swift
    /// subclass it is module-qualified ("MyApp.AvatarView"), and `String(reflecting:)` gives the same.
    var sd_defaultOperationKey: String {
        let type = type(of: self)
        let qualified = String(reflecting: type)
        return qualified.hasPrefix("SDPort.") ? String(describing: type) : qualified
    }
}
