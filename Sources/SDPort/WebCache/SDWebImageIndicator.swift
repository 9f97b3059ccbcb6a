import Foundation

/// A loading indicator shown on a view while its image loads (VIEW-07).
///
/// Ports the 5.x `SDWebImageIndicator` protocol (`SDWebImageIndicator.h`); 4.4.8 has only a built-in
/// `UIActivityIndicatorView` switched on with `sd_setShowActivityIndicatorView:`. The view starts the indicator
/// before loading, passes download progress clamped to 0...1, and stops it when the load has finished (or at
/// once for a nil URL). All methods are called on the main actor. `updateIndicatorProgress` is optional in 5.x;
/// here it has an empty default.
/// At tag 4.4.8: `SDWebImage/UIView+WebCache.m:329` (`-sd_setShowActivityIndicatorView:`).
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageIndicator.h:17` (`SDWebImageIndicator`).
@MainActor
public protocol SDWebImageIndicator: AnyObject, Sendable {
    /// The view that shows the indicator; the image view adds it as a subview.
    var indicatorView: UIView { get }
    /// Starts animating.
    func startAnimatingIndicator()
    /// Stops animating.
    func stopAnimatingIndicator()
    /// Shows progress between 0 and 1.
    func updateIndicatorProgress(_ progress: Double)
}

extension SDWebImageIndicator {
    public func updateIndicatorProgress(_ progress: Double) {}
}
