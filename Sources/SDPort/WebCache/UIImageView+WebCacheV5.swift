import Foundation

/// The public 5.x entry of an image view: `sd_setImage(with:placeholderImage:options:context:progress:completed:)`
/// with 5.x options (`SDWebImageV5Options`) and a 5.x context (`SDWebImageContext`).
///
/// Ports `-[UIImageView sd_setImageWithURL:placeholderImage:options:context:progress:completed:]`
/// (`UIImageView+WebCache.m`, 5.21.5): the view's 5.x body with no set-image block and the context as given, so the
/// operation key is the context's `setImageOperationKey` or the class name. It sits beside 4.4.8's entries
/// (`UIImageView+WebCache`), which take `SDWebImageOptions` and keep the 4.4.8 flow; the type of `options` picks
/// the flow. Every argument is spelled out here, so a call that leaves any out is a 4.4.8 call.
/// At tag 5.21.5: `SDWebImage/Core/UIImageView+WebCache.m:49` (`-sd_setImageWithURL:placeholderImage:options:context:progress:completed:`).
extension UIImageView {
    /// Loads `url` into `image` the 5.x way (V5-10, V5-12); `completed` runs on the main actor.
    public func sd_setImage(
        with url: URL?, placeholderImage: UIImage?, options: SDWebImageV5Options,
        context: SDWebImageContext?, progress: SDImageLoaderProgressBlock?,
        completed: SDExternalCompletionBlock?
    ) {
        sd_internalSetImage(
            with: url, placeholderImage: placeholderImage, options: options, context: context,
            setImageBlock: nil, progress: progress, completed: completed)
    }
}
