import Foundation

/// How the 4.x activity indicator looks: a headless stand-in for UIKit's `UIActivityIndicatorViewStyle`, with
/// UIKit's raw values (VIEW-10).
///
/// 4.4.8's `-[UIView sd_setIndicatorStyle:]` (`UIView+WebCache.m`, iOS and tvOS only) stores one on the view, and
/// `sd_addActivityIndicator` builds its indicator with it when the view has none yet; a view that never had a style
/// set reads 0, which is `whiteLarge`. Nothing is drawn on Linux, so the style is only carried by the indicator for
/// callers to read.
/// At tag 4.4.8: `SDWebImage/UIView+WebCache.m:337` (`-sd_setIndicatorStyle:`), `SDWebImage/UIView+WebCache.m:345` (`-sd_addActivityIndicator`).
public enum UIActivityIndicatorViewStyle: Int, Sendable {
    /// UIKit's large white indicator (0).
    case whiteLarge = 0
    /// UIKit's white indicator (1).
    case white = 1
    /// UIKit's gray indicator (2).
    case gray = 2
}
