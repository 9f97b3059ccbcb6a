import Foundation

/// The context's coder (`SDWebImageContextImageCoder`, 5.6.0 and later), read where coders live.
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageDefine.h:273` (`SDWebImageContextImageCoder`).
extension Dictionary where Key == SDWebImageContextOption, Value == any Sendable {
    var imageCoder: (any SDWebImageCoder)? { value(.imageCoder, as: (any SDWebImageCoder).self) }
}
