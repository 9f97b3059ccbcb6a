import Foundation

// The downloader's notifications, with SDWebImage 4.x's names (`SDWebImageDownloaderOperation.m`, 4.4.8).
// The downloader's default operation class, `SDWebImageDownloaderOperation`, posts each on the main queue with
// itself as the object (DL-13); a class set with `setOperationClass:` posts them only if it does so itself.
// 5.x keeps the names, the queue and the object; from 5.10.1 cancelling an unfinished operation posts the stop
// notification even when it has no task.

/// A download operation started its network task.
/// At tag 4.4.8: `SDWebImage/SDWebImageDownloaderOperation.m:25` (`SDWebImageDownloadStartNotification`).
public let SDWebImageDownloadStartNotification = Notification.Name("SDWebImageDownloadStartNotification")
/// A download operation received its response (valid or not).
/// At tag 4.4.8: `SDWebImage/SDWebImageDownloaderOperation.m:26` (`SDWebImageDownloadReceiveResponseNotification`).
public let SDWebImageDownloadReceiveResponseNotification = Notification.Name(
    "SDWebImageDownloadReceiveResponseNotification")
/// A download operation's task ended: completed, failed or cancelled.
/// At tag 4.4.8: `SDWebImage/SDWebImageDownloaderOperation.m:27` (`SDWebImageDownloadStopNotification`).
public let SDWebImageDownloadStopNotification = Notification.Name("SDWebImageDownloadStopNotification")
/// A download operation's task completed without a transport error (posted after the stop notification).
/// At tag 4.4.8: `SDWebImage/SDWebImageDownloaderOperation.m:28` (`SDWebImageDownloadFinishNotification`).
public let SDWebImageDownloadFinishNotification = Notification.Name("SDWebImageDownloadFinishNotification")
