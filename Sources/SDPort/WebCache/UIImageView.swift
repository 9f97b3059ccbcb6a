import Foundation

/// A headless stand-in for UIKit's `UIImageView`: an image, a highlighted image, and animation images.
///
/// The port's target of `UIImageView+WebCache` and `UIImageView+HighlightedWebCache` (4.4.8). Main-actor
/// confined, like every view (see `UIView`).
/// At tag 4.4.8: `SDWebImage/UIImageView+WebCache.m:14` (`UIImageView(WebCache)`), `SDWebImage/UIImageView+HighlightedWebCache.m:16` (`UIImageView(HighlightedWebCache)`).
@MainActor
open class UIImageView: UIView {
    /// The image shown normally.
    open var image: UIImage?
    /// The image shown while `isHighlighted`.
    open var highlightedImage: UIImage?
    /// Whether the highlighted image is shown.
    open var isHighlighted = false
    /// The frames of a frame-by-frame animation (`sd_setAnimationImages(with:)` fills them).
    open var animationImages: [UIImage]?
    /// Whether the frame animation runs.
    public private(set) var isAnimating = false

    /// Storage for `sd_setAnimationImages(with:)`: the loads by frame index, held weakly (an `NSPointerArray`
    /// of weak pointers in 4.4.8, where the method exists on iOS and tvOS only).
    var sd_animationOperations = SDOperationsDictionary()

    /// An image view with no image.
    public override init() {
        super.init()
    }

    /// An image view showing `image`, with `highlightedImage` for the highlighted state.
    public init(image: UIImage?, highlightedImage: UIImage? = nil) {
        self.image = image
        self.highlightedImage = highlightedImage
        super.init()
    }

    /// The image on screen: the highlighted one while highlighted (when there is one).
    public var displayedImage: UIImage? {
        isHighlighted ? (highlightedImage ?? image) : image
    }

    /// Marks the view as animating (a headless view draws no frames).
    open func startAnimating() { isAnimating = true }
    /// Marks the view as no longer animating.
    open func stopAnimating() { isAnimating = false }
}
