import Foundation

/// The error domain of errors SDWebImage makes itself (`SDWebImageErrorDomain` in `SDWebImageCompat.m`, 4.4.8).
/// Network failures use `NSURLErrorDomain` codes, as the original's NSURLSession errors do.
/// At tag 4.4.8: `SDWebImage/SDWebImageCompat.m:71` (`SDWebImageErrorDomain`).
public let SDWebImageErrorDomain = "SDWebImageErrorDomain"
