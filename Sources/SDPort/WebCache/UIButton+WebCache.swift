import Foundation

/// Ports `UIButton+WebCache` (4.4.8): load URLs into a button's image and background image per control state
/// (VIEW-09). Each state has its own operation key ("UIButtonImageOperation<state>",
/// "UIButtonBackgroundImageOperation<state>"), so loads for different states run side by side, and its URL is
/// remembered per state.
/// At tag 4.4.8: `SDWebImage/UIButton+WebCache.m:75` (`-sd_setImageWithURL:forState:placeholderImage:options:completed:`), `SDWebImage/UIButton+WebCache.m:134` (`-sd_setBackgroundImageWithURL:forState:placeholderImage:options:completed:`).
extension UIButton {
    static func imageURLKey(for state: State) -> String { "image_\(state.rawValue)" }
    private static func backgroundImageURLKey(for state: State) -> String { "backgroundImage_\(state.rawValue)" }
    /// The operation key of image loads for `state`.
    public static func sd_imageOperationKey(for state: State) -> String { "UIButtonImageOperation\(state.rawValue)" }
    /// The operation key of background image loads for `state`.
    public static func sd_backgroundImageOperationKey(for state: State) -> String {
        "UIButtonBackgroundImageOperation\(state.rawValue)"
    }

    // MARK: Image

    /// The image URL of the current state, or of the normal state.
    public var sd_currentImageURL: URL? {
        sd_imageURLStorage[Self.imageURLKey(for: state)] ?? sd_imageURLStorage[Self.imageURLKey(for: .normal)]
    }

    /// The image URL set for `state`.
    public func sd_imageURL(for state: State) -> URL? {
        sd_imageURLStorage[Self.imageURLKey(for: state)]
    }

    /// Loads `url` into the image for `state`.
    public func sd_setImage(
        with url: URL?, for state: State, placeholderImage: UIImage? = nil,
        options: SDWebImageOptions = [], context: SDWebImageViewContext? = nil
    ) {
        sd_setImage(
            with: url, for: state, placeholderImage: placeholderImage, options: options, context: context,
            completed: nil)
    }

    /// Loads `url` into the image for `state`; `completed` runs on the main actor.
    public func sd_setImage(
        with url: URL?, for state: State, placeholderImage: UIImage? = nil,
        options: SDWebImageOptions = [], context: SDWebImageViewContext? = nil,
        completed: SDExternalCompletionBlock?
    ) {
        sd_imageURLStorage[Self.imageURLKey(for: state)] = url
        sd_internalSetImage(
            with: url, placeholderImage: placeholderImage, options: options,
            operationKey: Self.sd_imageOperationKey(for: state),
            setImageBlock: { [weak self] image, _ in self?.setImage(image, for: state) },
            progress: nil, completed: completed, context: context)
    }

    /// Port addition: the awaitable form of `sd_setImage(with:for:...)`.
    public func sd_setImage(
        with url: URL?, for state: State, placeholderImage: UIImage? = nil,
        options: SDWebImageOptions = [],
        context: SDWebImageViewContext? = nil
    ) async throws -> SDWebImageLoadResult {
        sd_imageURLStorage[Self.imageURLKey(for: state)] = url
        return try await sd_internalSetImage(
            with: url, placeholderImage: placeholderImage, options: options,
            operationKey: Self.sd_imageOperationKey(for: state),
            internalSetImageBlock: { [weak self] image, _, _, _ in self?.setImage(image, for: state) },
            progress: nil, context: context)
    }

    // MARK: Background image

    /// The background image URL of the current state, or of the normal state.
    public var sd_currentBackgroundImageURL: URL? {
        sd_imageURLStorage[Self.backgroundImageURLKey(for: state)]
            ?? sd_imageURLStorage[Self.backgroundImageURLKey(for: .normal)]
    }

    /// The background image URL set for `state`.
    public func sd_backgroundImageURL(for state: State) -> URL? {
        sd_imageURLStorage[Self.backgroundImageURLKey(for: state)]
    }

    /// Loads `url` into the background image for `state`.
    public func sd_setBackgroundImage(
        with url: URL?, for state: State, placeholderImage: UIImage? = nil,
        options: SDWebImageOptions = [], context: SDWebImageViewContext? = nil
    ) {
        sd_setBackgroundImage(
            with: url, for: state, placeholderImage: placeholderImage, options: options,
            context: context, completed: nil)
    }

    /// Loads `url` into the background image for `state`; `completed` runs on the main actor.
    public func sd_setBackgroundImage(
        with url: URL?, for state: State, placeholderImage: UIImage? = nil,
        options: SDWebImageOptions = [], context: SDWebImageViewContext? = nil,
        completed: SDExternalCompletionBlock?
    ) {
        sd_imageURLStorage[Self.backgroundImageURLKey(for: state)] = url
        sd_internalSetImage(
            with: url, placeholderImage: placeholderImage, options: options,
            operationKey: Self.sd_backgroundImageOperationKey(for: state),
            setImageBlock: { [weak self] image, _ in self?.setBackgroundImage(image, for: state) },
            progress: nil, completed: completed, context: context)
    }

    // MARK: Cancel

    /// Cancels the image load for `state`.
    public func sd_cancelImageLoad(for state: State) {
        sd_cancelImageLoadOperation(withKey: Self.sd_imageOperationKey(for: state))
    }

    /// Cancels the background image load for `state`.
    public func sd_cancelBackgroundImageLoad(for state: State) {
        sd_cancelImageLoadOperation(withKey: Self.sd_backgroundImageOperationKey(for: state))
    }
}
