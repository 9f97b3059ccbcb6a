import Foundation

/// The activity indicator, headless: it keeps a log of the calls it receives so a program or a test can see
/// when the view started and stopped it and what progress it showed (VIEW-07).
///
/// Ports 5.x's `SDWebImageActivityIndicator` (`SDWebImageIndicator.m`), which wraps a
/// `UIActivityIndicatorView` (an `NSProgressIndicator` on macOS); 4.4.8's equivalent, on iOS and tvOS only, is the
/// indicator `UIView+WebCache` adds itself, which the port's 4.x view API (`sd_setShowActivityIndicatorView`, VIEW-10) builds from this class. Linux has nothing to spin,
/// so `indicatorView` is a plain stand-in view. Main-actor confined.
/// At tag 4.4.8: `SDWebImage/UIView+WebCache.m:345` (`-sd_addActivityIndicator`).
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageIndicator.m:30` (`SDWebImageActivityIndicator`), `SDWebImage/Core/SDWebImageIndicator.m:70` (`-startAnimatingIndicator`).
@MainActor
public final class SDWebImageActivityIndicator: SDWebImageIndicator {
    /// One call the indicator received.
    public enum Call: Equatable, Sendable {
        /// `startAnimatingIndicator` was called.
        case start
        /// `stopAnimatingIndicator` was called.
        case stop
        /// `updateIndicatorProgress` was called with this fraction.
        case progress(Double)
    }

    public let indicatorView = UIView()
    /// The look UIKit would give it; recorded only. The 4.x view API creates its indicator with the view's style.
    public let style: UIActivityIndicatorViewStyle
    /// Whether it is animating now.
    public private(set) var isAnimating = false
    /// Every call, in order.
    public private(set) var calls: [Call] = []

    /// An indicator of `style` (default `whiteLarge`, UIKit's raw value 0).
    public init(style: UIActivityIndicatorViewStyle = .whiteLarge) {
        self.style = style
    }

    public func startAnimatingIndicator() {
        isAnimating = true
        calls.append(.start)
    }

    public func stopAnimatingIndicator() {
        isAnimating = false
        calls.append(.stop)
    }

    public func updateIndicatorProgress(_ progress: Double) {
        calls.append(.progress(progress))
    }

    /// How many times it was started.
    public var startCount: Int { calls.filter { $0 == .start }.count }
    /// How many times it was stopped.
    public var stopCount: Int { calls.filter { $0 == .stop }.count }
    /// The progress values it was shown, in order.
    public var progressValues: [Double] {
        calls.compactMap { if case .progress(let value) = $0 { return value } else { return nil } }
    }
}
