import Foundation

/// The context's coder (5.x `SDWebImageContextImageCoder`), read where coders live.
extension Dictionary where Key == SDWebImageContextOption, Value == any Sendable {
    var imageCoder: (any SDWebImageCoder)? { value(.imageCoder, as: (any SDWebImageCoder).self) }
}
