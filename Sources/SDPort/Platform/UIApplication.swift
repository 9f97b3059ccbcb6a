import Foundation

/// The application lifecycle notifications SDWebImage listens to (4.4.8: on iOS and tvOS only), under UIKit's names.
///
/// Linux has no UIKit and no application that posts these, so the port defines the names and one stand-in
/// application object, `shared`, which UIKit names as each notification's `object`; a host program posts them
/// itself on `NotificationCenter.default` when the equivalent event happens (for example on SIGTERM, or when a
/// daemon goes idle), and `SDMemoryPressureMonitor` posts the memory warning with `shared` as UIKit does (DL-20):
///
///     NotificationCenter.default.post(name: UIApplication.didReceiveMemoryWarningNotification,
///                                     object: UIApplication.shared)
///
/// - `didReceiveMemoryWarningNotification`: memory caches (`AutoPurgeCache`) empty themselves.
/// - `willTerminateNotification`: `SDImageCache` runs `deleteOldFiles`.
/// - `didEnterBackgroundNotification`: `SDImageCache` runs `deleteOldFiles`. On iOS it does so inside a
///   background task so the app is not suspended mid-cleanup; Linux has no background tasks, so that part
///   is a no-op.
///
/// The string values are UIKit's, so logs read the same on both platforms.
public final class UIApplication: Sendable {
    /// The stand-in for `[UIApplication sharedApplication]`: the object the lifecycle notifications name.
    public static let shared = UIApplication()

    private init() {}

    /// Posted when the system (here: the host program) asks caches to give memory back.
    public static let didReceiveMemoryWarningNotification =
        Notification.Name("UIApplicationDidReceiveMemoryWarningNotification")
    /// Posted just before the program exits.
    public static let willTerminateNotification = Notification.Name("UIApplicationWillTerminateNotification")
    /// Posted when the program stops being in the foreground.
    public static let didEnterBackgroundNotification = Notification.Name("UIApplicationDidEnterBackgroundNotification")
}
