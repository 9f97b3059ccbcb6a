import Foundation

/// Runs before the transition, with the view still showing what it showed (the placeholder, unless
/// `DelayPlaceholder`).
/// At tag 4.4.8: `SDWebImage/SDWebImageTransition.h:27` (`SDWebImageTransitionPreparesBlock`).
public typealias SDWebImageTransitionPreparesBlock =
    @MainActor (
        _ view: UIView, _ image: UIImage?, _ imageData: Data?,
        _ cacheType: SDImageCacheType, _ imageURL: URL?
    ) -> Void
/// Runs as the transition's animations, right after the image is set (unless `avoidAutoSetImage`).
/// At tag 4.4.8: `SDWebImage/SDWebImageTransition.h:28` (`SDWebImageTransitionAnimationsBlock`).
public typealias SDWebImageTransitionAnimationsBlock = @MainActor (_ view: UIView, _ image: UIImage?) -> Void
/// Runs when the transition has ended.
/// At tag 4.4.8: `SDWebImage/SDWebImageTransition.h:29` (`SDWebImageTransitionCompletionBlock`).
public typealias SDWebImageTransitionCompletionBlock = @MainActor @Sendable (_ finished: Bool) -> Void

/// The animation applied when a view's load finishes (VIEW-08), set on a view as `sd_imageTransition`.
///
/// Ports `SDWebImageTransition` (`SDWebImageTransition.m`, 4.4.8, where it arrived in 4.3; 5.x keeps it). In
/// 4.4.8 it is applied only when a finished load sets the view's image and either reports cache type none (a
/// download, or a failure whose placeholder `DelayPlaceholder` held back) or has `ForceTransition` (5.9.0 and later
/// also animate a disk hit unless `QueryMemoryDataSync` or `QueryDiskDataSync` is set). The view runs `prepares`,
/// then (in UIKit's transition completion) sets the image unless `avoidAutoSetImage`, runs `animations`, and finally
/// `completion` (with UIKit's finished flag in 4.4.8 on iOS and tvOS, `YES` on macOS; here `true`, on a later turn
/// of the main queue).
///
/// Linux: there is nothing to animate, so `duration` and `animationOptions` are carried but not timed; the blocks
/// are called in UIKit's order, which is what a test can observe. Main-actor confined, like the views.
/// At tag 4.4.8: `SDWebImage/SDWebImageTransition.m:19` (`-init`), `SDWebImage/UIView+WebCache.m:227` (`-sd_setImage:imageData:basedOnClassOrViaCustomSetImageBlock:transition:cacheType:imageURL:`).
@MainActor
public final class SDWebImageTransition {
    /// Do not set the image: `animations` will (default false).
    public var avoidAutoSetImage = false
    /// The animation's length in seconds (default 0.5, as the original).
    public var duration: TimeInterval = 0.5
    /// UIKit animation options (for example cross-dissolve for `fade`).
    public var animationOptions: SDWebImageAnimationOptions = []
    /// Called before the animation, with the view, the image, its data, cache type and URL.
    public var prepares: SDWebImageTransitionPreparesBlock?
    /// Called inside the animation, after the image was set.
    public var animations: SDWebImageTransitionAnimationsBlock?
    /// Called when the animation ends.
    public var completion: SDWebImageTransitionCompletionBlock?

    /// A transition with no animation options and the default duration, 0.5 s.
    public init() {}

    /// A cross-dissolve.
    public static var fade: SDWebImageTransition { make(.transitionCrossDissolve) }
    /// A flip from the left.
    public static var flipFromLeft: SDWebImageTransition { make(.transitionFlipFromLeft) }
    /// A flip from the right.
    public static var flipFromRight: SDWebImageTransition { make(.transitionFlipFromRight) }
    /// A flip from the top.
    public static var flipFromTop: SDWebImageTransition { make(.transitionFlipFromTop) }
    /// A flip from the bottom.
    public static var flipFromBottom: SDWebImageTransition { make(.transitionFlipFromBottom) }
    /// A page curl up.
    public static var curlUp: SDWebImageTransition { make(.transitionCurlUp) }
    /// A page curl down.
    public static var curlDown: SDWebImageTransition { make(.transitionCurlDown) }

    private static func make(_ option: SDWebImageAnimationOptions) -> SDWebImageTransition {
        let transition = SDWebImageTransition()
        transition.animationOptions = [option, .allowUserInteraction]
        return transition
    }
}
