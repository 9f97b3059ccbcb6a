import Foundation

/// The error domain of errors SDWebImage makes itself (`SDWebImageErrorDomain` in `SDWebImageCompat.m`, 4.4.8).
/// Network failures use `NSURLErrorDomain` codes, as the original's NSURLSession errors do.
public let SDWebImageErrorDomain = "SDWebImageErrorDomain"
