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
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let normal: State = []
        public static let highlighted = State(rawValue: 1 << 0)
        public static let disabled = State(rawValue: 1 << 1)
        public static let selected = State(rawValue: 1 << 2)
    }

    open var isEnabled = true
    open var isSelected = false
    open var isHighlighted = false

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
