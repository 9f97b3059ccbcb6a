import Foundation

/// The public 5.x entry of a button: `sd_setImage(with:for:placeholderImage:options:context:progress:completed:)`
/// with 5.x options (`SDWebImageV5Options`) and a 5.x context (`SDWebImageContext`).
///
/// Ports `-[UIButton sd_setImageWithURL:forState:placeholderImage:options:context:progress:completed:]`
/// (`UIButton+WebCache.m`, 5.21.5): the context's `setImageOperationKey` is replaced by the state's key
/// ("UIButtonImageOperation<state>", the same as 4.4.8's), the image is set for that state, and the view's 5.x body
/// runs. The URL is remembered for the state (`sd_imageURL(for:)`). It sits beside 4.4.8's entries
/// (`UIButton+WebCache`), which take `SDWebImageOptions`; the type of `options` picks the flow.
/// At tag 5.21.5: `SDWebImage/Core/UIButton+WebCache.m:55` (`-sd_setImageWithURL:forState:placeholderImage:options:context:progress:completed:`).
extension UIButton {
    /// Loads `url` into the image for `state` the 5.x way (V5-10, V5-12); `completed` runs on the main actor.
    public func sd_setImage(
        with url: URL?, for state: State, placeholderImage: UIImage?, options: SDWebImageV5Options,
        context: SDWebImageContext?, progress: SDImageLoaderProgressBlock?,
        completed: SDExternalCompletionBlock?
    ) {
        var context = context ?? [:]
        context[.setImageOperationKey] = Self.sd_imageOperationKey(for: state)
        sd_imageURLStorage[Self.imageURLKey(for: state)] = url
        sd_internalSetImage(
            with: url, placeholderImage: placeholderImage, options: options, context: context,
            internalSetImageBlock: { [weak self] image, _, _, _ in self?.setImage(image, for: state) },
            progress: progress, completion: Self.viewLoadCompletion(from: completed))
    }
}
