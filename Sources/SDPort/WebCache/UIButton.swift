import Foundation

/// A headless stand-in for UIKit's `UIButton`: an image and a background image per control state.
///
/// As in UIKit, a state without its own image shows the normal state's. The port's target of
/// `UIButton+WebCache` (4.4.8), which also keeps the URL per state (`sd_imageURLStorage`, an associated
/// dictionary there, a stored one here). Main-actor confined, like every view (see `UIView`).
/// At tag 4.4.8: `SDWebImage/UIButton+WebCache.m:169` (`-sd_imageURLStorage`).
@MainActor
open class UIButton: UIControl {
    private var images: [UInt: UIImage] = [:]
    private var backgroundImages: [UInt: UIImage] = [:]
    /// The URLs set per state, keyed as the original keys them ("image_<state>", "backgroundImage_<state>").
    var sd_imageURLStorage: [String: URL] = [:]

    /// A button with no images for any state.
    public override init() {
        super.init()
    }

    /// Sets (or, with nil, removes) the image for `state`.
    open func setImage(_ image: UIImage?, for state: State) {
        images[state.rawValue] = image
    }

    /// The image for `state`, falling back to the normal state's.
    open func image(for state: State) -> UIImage? {
        images[state.rawValue] ?? images[State.normal.rawValue]
    }

    /// Sets (or removes) the background image for `state`.
    open func setBackgroundImage(_ image: UIImage?, for state: State) {
        backgroundImages[state.rawValue] = image
    }

    /// The background image for `state`, falling back to the normal state's.
    open func backgroundImage(for state: State) -> UIImage? {
        backgroundImages[state.rawValue] ?? backgroundImages[State.normal.rawValue]
    }

    /// The image shown in the current state.
    public var currentImage: UIImage? { image(for: state) }
    /// The background image shown in the current state.
    public var currentBackgroundImage: UIImage? { backgroundImage(for: state) }
}
