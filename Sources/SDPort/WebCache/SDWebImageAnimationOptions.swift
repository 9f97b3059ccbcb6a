/// How a transition animates; UIKit's `UIViewAnimationOptions` bits that SDWebImage's transitions use.
///
/// Ports the `SDWebImageAnimationOptions` typedef of `SDWebImageTransition.h` (4.4.8), which under UIKit (iOS,
/// tvOS) is `UIViewAnimationOptions` (line 20; on macOS, its own one-bit `NS_OPTIONS`, line 22). The raw values are UIKit's.
/// Headless views draw nothing, so the options are only carried to
/// `UIView.transition(with:duration:options:animations:completion:)` where a test can read them.
/// At tag 4.4.8: `SDWebImage/SDWebImageTransition.h:22` (`SDWebImageAnimationOptions`).
public struct SDWebImageAnimationOptions: OptionSet, Sendable, Hashable {
    /// The bits, with UIKit's values.
    public let rawValue: UInt
    /// Options from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// UIKit's `UIViewAnimationOptionAllowUserInteraction`.
    public static let allowUserInteraction = SDWebImageAnimationOptions(rawValue: 1 << 1)
    /// UIKit's flip-from-left transition.
    public static let transitionFlipFromLeft = SDWebImageAnimationOptions(rawValue: 1 << 20)
    /// UIKit's flip-from-right transition.
    public static let transitionFlipFromRight = SDWebImageAnimationOptions(rawValue: 2 << 20)
    /// UIKit's curl-up transition.
    public static let transitionCurlUp = SDWebImageAnimationOptions(rawValue: 3 << 20)
    /// UIKit's curl-down transition.
    public static let transitionCurlDown = SDWebImageAnimationOptions(rawValue: 4 << 20)
    /// UIKit's cross-dissolve transition (under UIKit, `SDWebImageTransition.fadeTransition` uses it).
    public static let transitionCrossDissolve = SDWebImageAnimationOptions(rawValue: 5 << 20)
    /// UIKit's flip-from-top transition.
    public static let transitionFlipFromTop = SDWebImageAnimationOptions(rawValue: 6 << 20)
    /// UIKit's flip-from-bottom transition.
    public static let transitionFlipFromBottom = SDWebImageAnimationOptions(rawValue: 7 << 20)
}
