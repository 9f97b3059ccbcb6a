import Foundation

/// The error domain of most errors SDWebImage makes itself (`SDWebImageErrorDomain` in `SDWebImageCompat.m`,
/// 4.4.8; the manager's invalid-URL error and the default operation's "Task can't be initialized" are in
/// `NSURLErrorDomain`).
/// Network failures use `NSURLErrorDomain` codes, as the original's NSURLSession errors do.
/// At tag 4.4.8: `SDWebImage/SDWebImageCompat.m:71` (`SDWebImageErrorDomain`).
public let SDWebImageErrorDomain = "SDWebImageErrorDomain"
