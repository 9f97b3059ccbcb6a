import Foundation

/// A headless stand-in for UIKit's `UIView`: a node in a view tree that can hold an image load.
///
/// Linux has no UIKit; the port's views keep only what SDWebImage's view categories touch. What the original
/// keeps in associated objects (`objc_setAssociatedObject` in `UIView+WebCache.m` and
/// `UIView+WebCacheOperation.m`, 4.4.8) is stored here: the image URL, the image progress, the operations by
/// operation key (held weakly, as the original's `NSMapTable` with weak values), the indicator (5.x), the 4.x
/// activity indicator with its switch and style, and the transition.
///
/// Confinement: views are `@MainActor`, as UIKit's are. Every method runs on the main actor, so this state needs
/// no lock (the original takes `@synchronized(self)` around the operation table because its categories may be
/// called off the main thread; here the compiler rules that out). The manager's completions arrive on the
/// manager's `completionQueue` and are moved to the main queue before they touch a view.
/// At tag 4.4.8: `SDWebImage/UIView+WebCache.m:28` (`-sd_imageURL`), `SDWebImage/UIView+WebCacheOperation.m:20` (`-sd_operationDictionary`).
@MainActor
open class UIView {
    /// The parent view, if this view was added to one.
    public private(set) weak var superview: UIView?
    /// The child views, in the order they were added.
    public private(set) var subviews: [UIView] = []
    /// How many times `setNeedsLayout()` was called (the original calls it once a load has set its image: the
    /// loaded one, or the placeholder that `DelayPlaceholder` held back).
    public private(set) var setNeedsLayoutCount = 0

    /// `sd_imageURL`: the URL of the last `sd_internalSetImage` (associated object `imageURLKey` in 4.4.8).
    var sd_storedImageURL: URL?
    /// `sd_imageProgress`, created on first use.
    var sd_storedImageProgress: Progress?
    /// The running loads by operation key, held weakly.
    var sd_operationDictionary = SDOperationsDictionary()
    /// The transition applied when a load finishes (`sd_imageTransition`).
    var sd_storedImageTransition: SDWebImageTransition?
    /// The loading indicator (`sd_imageIndicator`, 5.x).
    var sd_storedImageIndicator: (any SDWebImageIndicator)?
    /// Whether loads show the 4.x activity indicator (`TAG_ACTIVITY_SHOW` in 4.4.8).
    var sd_storedShowActivityIndicator = false
    /// The 4.x indicator's style (`TAG_ACTIVITY_STYLE`); 0 when never set, as the original reads a missing number.
    var sd_storedIndicatorStyle: UIActivityIndicatorViewStyle = .whiteLarge
    /// The 4.x indicator while one is on the view (`TAG_ACTIVITY_INDICATOR`).
    var sd_storedActivityIndicator: SDWebImageActivityIndicator?
    /// The operation key of the latest 5.x load (`sd_latestOperationKey`, 5.x); 4.x loads leave it alone.
    var sd_latestOperationKeyStorage: String?

    /// A view with no image, no subviews and no running loads.
    public init() {}

    /// Adds `view` as the last child, taking it from its previous parent.
    public func addSubview(_ view: UIView) {
        view.removeFromSuperview()
        subviews.append(view)
        view.superview = self
    }

    /// Takes this view out of its parent.
    public func removeFromSuperview() {
        guard let parent = superview else { return }
        parent.subviews.removeAll { $0 === self }
        superview = nil
    }

    /// Marks the view for layout; headless, it only counts the calls.
    open func setNeedsLayout() {
        setNeedsLayoutCount += 1
    }

    /// Headless stand-in for `+[UIView transitionWithView:duration:options:animations:completion:]`: runs
    /// `animations` at once, then `completion(true)` on a later turn of the main queue, as UIKit calls it after
    /// the animation ends. Nothing is drawn, so `duration` and `options` are recorded by the caller only.
    public static func transition(
        with view: UIView, duration: TimeInterval, options: SDWebImageAnimationOptions,
        animations: (@MainActor () -> Void)?,
        completion: (@MainActor @Sendable (Bool) -> Void)?
    ) {
        animations?()
        guard let completion else { return }
        DispatchQueue.main.async {
            MainActor.assumeIsolated { completion(true) }
        }
    }
}
