import Foundation

/// The 5.x options and context of a view load started through the 5.x entry
/// (`UIView.sd_internalSetImage(with:placeholderImage:options:context:setImageBlock:progress:completed:)`).
/// Their presence is what tells the view to load through the manager's 5.x flow and to follow 5.x's transition
/// rule (V5-10); a view load without them is a 4.x load and keeps 4.4.8's rules.
///
/// Not a type of the original: 5.x has one options type and passes options and context as two arguments.
/// At tag 5.21.5: `SDWebImage/Core/UIView+WebCache.m:58` (`-sd_internalSetImageWithURL:placeholderImage:options:context:setImageBlock:progress:completed:`).
struct SDWebImageViewV5Load: Sendable {
    let options: SDWebImageV5Options
    let context: SDWebImageContext?
}
