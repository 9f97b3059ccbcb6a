import Foundation

/// A headless stand-in for UIKit's `UIControl`: enabled, selected and highlighted flags, and the state they make.
///
/// Exists so `UIButton` can keep an image per `UIControl.State`, as `UIButton+WebCache` (4.4.8) expects.
/// Main-actor confined, like every view (see `UIView`).
/// At tag 4.4.8: `SDWebImage/UIButton+WebCache.m:37` (`UIButton(WebCache)`).
@MainActor
open class UIControl: UIView {
    /// A control state: normal is the empty set; the others are UIKit's bits.
    public struct State: OptionSet, Sendable, Hashable {
        /// The bits, with UIKit's values.
        public let rawValue: UInt
        /// A state from its bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// No flag set: the control's normal state.
        public static let normal: State = []
        /// UIKit's highlighted bit.
        public static let highlighted = State(rawValue: 1 << 0)
        /// UIKit's disabled bit.
        public static let disabled = State(rawValue: 1 << 1)
        /// UIKit's selected bit.
        public static let selected = State(rawValue: 1 << 2)
    }

    /// Whether the control is enabled; false adds `disabled` to `state`.
    open var isEnabled = true
    /// Whether the control is selected; true adds `selected` to `state`.
    open var isSelected = false
    /// Whether the control is highlighted; true adds `highlighted` to `state`.
    open var isHighlighted = false

    /// An enabled control, not selected or highlighted.
    public override init() {
        super.init()
    }

    /// The current state, from the three flags.
    open var state: State {
        var state: State = .normal
        if isHighlighted { state.insert(.highlighted) }
        if !isEnabled { state.insert(.disabled) }
        if isSelected { state.insert(.selected) }
        return state
    }
}
