import Foundation

/// Ports the activity-indicator methods of `UIView+WebCache` (4.4.8, UIKit only) onto the port's headless
/// `SDWebImageActivityIndicator` (VIEW-10).
///
/// 4.4.8: `sd_setShowActivityIndicatorView:` switches the indicator on for the view's next loads; each load with a
/// URL then calls `sd_addActivityIndicator`, which creates a `UIActivityIndicatorView` of the view's style
/// (`sd_setIndicatorStyle:`) if there is none, adds it as a subview and starts it; the manager's answer — every
/// answer, finished or not — and a nil URL call `sd_removeActivityIndicator`, which takes it out of the view and
/// drops it. 5.x replaced all this with `sd_imageIndicator` (`SDWebImageIndicator`); both work here, side by side.
///
/// Differences: the original wraps the work in `dispatch_main_async_safe`, which runs it at once on the main queue
/// and hops there from any other; views here are main-actor isolated, so the work always runs at once. Removing
/// the indicator also calls `stopAnimatingIndicator()` (UIKit's view simply stops being shown), so its call log
/// ends with a stop.
/// At tag 4.4.8: `SDWebImage/UIView+WebCache.m:329` (`-sd_setShowActivityIndicatorView:`), `SDWebImage/UIView+WebCache.m:345` (`-sd_addActivityIndicator`), `SDWebImage/UIView+WebCache.m:372` (`-sd_removeActivityIndicator`).
/// At tag 5.21.5: `SDWebImage/Core/UIView+WebCache.m:486` (`-sd_startImageIndicatorWithQueue:`).
extension UIView {
    /// Whether loads on this view show the 4.x activity indicator. Off until set.
    public var sd_showActivityIndicatorView: Bool { sd_storedShowActivityIndicator }

    /// Switches the 4.x activity indicator on or off for the loads that start after this call.
    public func sd_setShowActivityIndicatorView(_ show: Bool) {
        sd_storedShowActivityIndicator = show
    }

    /// Chooses the style of the indicator the next `sd_addActivityIndicator` creates.
    public func sd_setIndicatorStyle(_ style: UIActivityIndicatorViewStyle) {
        sd_storedIndicatorStyle = style
    }

    /// The style set with `sd_setIndicatorStyle(_:)`, `whiteLarge` (raw value 0) when none was.
    public func sd_getIndicatorStyle() -> UIActivityIndicatorViewStyle {
        sd_storedIndicatorStyle
    }

    /// The indicator `sd_addActivityIndicator` put on this view, nil when there is none (the original keeps it
    /// in a private associated property; the port shows it, headless views having nothing else to look at).
    public var sd_activityIndicator: SDWebImageActivityIndicator? { sd_storedActivityIndicator }

    /// Creates the indicator with the view's style when there is none, adds its view as a subview, and starts it.
    public func sd_addActivityIndicator() {
        let indicator: SDWebImageActivityIndicator
        if let existing = sd_storedActivityIndicator {
            indicator = existing
        } else {
            indicator = SDWebImageActivityIndicator(style: sd_storedIndicatorStyle)
            sd_storedActivityIndicator = indicator
            addSubview(indicator.indicatorView)
        }
        indicator.startAnimatingIndicator()
    }

    /// Stops the indicator, takes its view out of this one and forgets it; nothing happens when there is none.
    public func sd_removeActivityIndicator() {
        guard let indicator = sd_storedActivityIndicator else { return }
        indicator.stopAnimatingIndicator()
        indicator.indicatorView.removeFromSuperview()
        sd_storedActivityIndicator = nil
    }
}
