import Foundation
import Logging

/// The image cache: a memory cache (`AutoPurgeCache`) in front of a disk cache of one file per key.
///
/// Ports `SDImageCache` (`SDImageCache.m`, 4.4.8). This file holds the set-up, the paths and the lifecycle;
/// `SDImageCache+Store`, `+Query`, `+Remove`, `+Cleanup` and `+FileName` hold the rest.
///
/// Disk layout (FAQ-01): `init()` uses the namespace "default"; `init(namespace:)` puts the cache in
/// `makeDiskCachePath(ns)` = <user caches directory>/<ns>, and `diskCachePath` is that directory + "/" +
/// `com.hackemist.SDWebImageCache.` + ns, so by default
/// `~/.cache/default/com.hackemist.SDWebImageCache.default`. On Linux the user caches directory (iOS:
/// `Library/Caches`) is `$XDG_CACHE_HOME` when it is set to an absolute path, else `$HOME/.cache`. 5.x moves the
/// default to `Caches/com.hackemist.SDImageCache/default` and moves the 4.x "default" namespace's folder there once
/// (other namespaces are not migrated).
///
/// Threads (FAQ-11): the memory cache is thread-safe by itself; every disk read, write and delete runs on the
/// cache's own serial queue (one per instance, as in 4.4.8) labelled `com.hackemist.SDWebImageCache` (`ioQueue`),
/// except a `.queryDiskSync` search, which reads on the caller's thread as 4.4.8's does. Linux cannot ask for the
/// current queue's label, so "am I on the io queue" is answered with a dispatch-specific key (`isOnIOQueue`).
///
/// Completions: where the original calls back on the main queue, the port calls back on `completionQueue`
/// (default `.main`, as 4.4.8; 5.15.0 added a similar per-call context option, `SDWebImageContextCallbackQueue`).
/// A memory hit in `queryCacheOperation` calls `done` synchronously without `.queryDataWhenInMemory`, as the
/// original.
///
/// Lifecycle (CACHE-13): the cache runs `deleteOldFiles` when `UIApplication.willTerminateNotification` or
/// `UIApplication.didEnterBackgroundNotification` is posted; the memory cache empties itself on
/// `UIApplication.didReceiveMemoryWarningNotification` (the original subscribes to all three on iOS and tvOS only).
/// The background task the original wraps around the background cleanup does not exist on Linux (no-op).
///
/// Beyond the original: a file appears in the cache only whole (written to a temporary name in the cache
/// directory, then renamed) whatever `diskCacheWritingOptions` says, where 4.4.8 is atomic only with its default
/// `NSDataWritingAtomic`; write failures are logged (and thrown by `writeImageDataToDisk(_:forKey:)`). Sizes for
/// the cleanup are blocks on disk, as 4.4.8's `NSURLTotalFileAllocatedSizeKey`. A file that no longer decodes is
/// answered with its data and no image, as 4.4.8 answers it (CACHE-16).
///
/// Mutable state of the cache object itself (`customPaths`, `_completionQueue`) is
/// guarded by `stateLock`; `fileManager` is only used on `ioQueue`.
/// At tag 4.4.8: `SDWebImage/SDImageCache.m:177` (`-initWithNamespace:diskCacheDirectory:`), `SDWebImage/SDImageCache.m:506` (`-queryCacheOperationForKey:options:done:`).
/// At tag 5.21.5: `SDWebImage/Core/SDImageCache.m:118` (`-initWithNamespace:diskCacheDirectory:config:`), `SDWebImage/Core/SDImageCache.m:192` (`-migrateDiskCacheDirectory`).
public final class SDImageCache: @unchecked Sendable {
    /// The prefix of the full namespace (`com.hackemist.SDWebImageCache.` + namespace).
    public static let namespacePrefix = "com.hackemist.SDWebImageCache."
    /// The io queue's label, as the original's.
    public static let ioQueueLabel = "com.hackemist.SDWebImageCache"

    /// The shared cache, namespace "default" (`+sharedImageCache`). Creating it writes nothing to disk.
    public static let shared = SDImageCache()

    static let logger = Logger(label: "com.hackemist.SDWebImageCache")

    /// The settings; may be changed at any time.
    public let config: SDImageCacheConfig

    /// The memory cache (private in the original, public here for inspection), named after the full namespace.
    public let memCache: AutoPurgeCache<String, UIImage>

    /// The directory holding this cache's files.
    public let diskCachePath: String

    /// The serial queue every disk read, write and delete runs on. Public so a caller can batch disk work
    /// (for example several `storeImageData(toDisk:forKey:)` calls) inside one block on it.
    public let ioQueue: DispatchQueue

    /// Tells `isOnIOQueue` which cache's io queue the current code runs on.
    private static let ioQueueKey = DispatchSpecificKey<ObjectIdentifier>()
    private let ioQueueMarker = IOQueueMarker()

    /// Used only on `ioQueue`.
    let fileManager = FileManager()

    private let stateLock = NSLock()
    private var customPaths: [String] = []
    private var _completionQueue: DispatchQueue = .main
    private var lifecycleObservers: [NSObjectProtocol] = []

    // MARK: Init

    /// A cache with the namespace "default" in the user caches directory.
    public convenience init() {
        self.init(namespace: "default")
    }

    /// A cache in `makeDiskCachePath(namespace)`, that is <user caches dir>/<namespace>/<full namespace>.
    public convenience init(namespace: String) {
        self.init(namespace: namespace, diskCacheDirectory: SDImageCache.userCachesDirectoryPath(namespace))
    }

    /// A cache in `directory` + "/" + full namespace. A nil directory means `makeDiskCachePath(namespace)`
    /// itself, without the full namespace appended (as the original does).
    public init(namespace: String, diskCacheDirectory: String?) {
        let fullNamespace = SDImageCache.namespacePrefix + namespace
        ioQueue = DispatchQueue(label: SDImageCache.ioQueueLabel)
        let config = SDImageCacheConfig()
        self.config = config
        memCache = AutoPurgeCache(weakCacheEnabled: { config.shouldUseWeakMemoryCache })
        memCache.name = fullNamespace
        memCache.fallbackTotalCostLimit = SDImageCache.defaultMemoryCostLimit
        if let diskCacheDirectory {
            diskCachePath = (diskCacheDirectory as NSString).appendingPathComponent(fullNamespace)
        } else {
            diskCachePath = SDImageCache.userCachesDirectoryPath(namespace)
        }
        ioQueue.setSpecific(key: SDImageCache.ioQueueKey, value: ObjectIdentifier(ioQueueMarker))
        subscribeToLifecycleNotifications()
        SDMemoryPressureMonitor.startSharedIfAutomatic()
    }

    deinit {
        for observer in lifecycleObservers {
            NotificationCenter.default.removeObserver(observer)
        }
    }

    // MARK: Paths

    /// The user caches directory: `$XDG_CACHE_HOME` when it is an absolute path, else `$HOME/.cache`
    /// (the Linux stand-in for iOS's `NSCachesDirectory`).
    public static var userCachesDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return xdg
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return (home as NSString).appendingPathComponent(".cache")
    }

    private static func userCachesDirectoryPath(_ component: String) -> String {
        (userCachesDirectory as NSString).appendingPathComponent(component)
    }

    /// Ports `-makeDiskCachePath:`: the user caches directory + "/" + the given name. (The original names the
    /// parameter `fullNamespace` but is called with the short namespace.)
    public func makeDiskCachePath(_ fullNamespace: String) -> String? {
        SDImageCache.userCachesDirectoryPath(fullNamespace)
    }

    /// Adds a directory that is searched for files (after the cache's own), never written to. Added once.
    public func addReadOnlyCachePath(_ path: String) {
        stateLock.withLock {
            if !customPaths.contains(path) { customPaths.append(path) }
        }
    }

    /// The read-only search paths, in the order they were added.
    public var readOnlyCachePaths: [String] { stateLock.withLock { customPaths } }

    /// The path of `key`'s file inside `path`.
    public func cachePath(forKey key: String?, inPath path: String) -> String? {
        SDImageCache.join(path, SDImageCache.cachedFileName(forKey: key))
    }

    /// `directory` + "/" + `name`, without Foundation's path normalisation (the name is one plain component).
    static func join(_ directory: String, _ name: String) -> String {
        if directory.isEmpty { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The path of `key`'s file inside `diskCachePath`.
    public func defaultCachePath(forKey key: String?) -> String? {
        cachePath(forKey: key, inPath: diskCachePath)
    }

    // MARK: Memory cache settings

    /// The memory limit of a new cache while `maxMemoryCost` is 0, in cost units (pixels): a quarter of the
    /// memory the process may use (`SDProcessMemory.limitBytes`, the cgroup's limit or physical memory), at 4
    /// bytes a pixel. Port addition: on iOS NSCache is purged by the system under pressure and 4.4.8 leaves the
    /// cost unlimited; a Linux process is never purged, so an unlimited cache would grow until the kernel kills
    /// it. A quarter is Kingfisher's share of physical memory (Nuke takes 15 %, capped at 768 MB, for apps whose
    /// UI needs the rest); the decoded images are the main thing an image loader keeps. Set it (0: no limit)
    /// before making caches; `maxMemoryCost` set on a cache wins.
    public static var defaultMemoryCostLimit: Int {
        get { defaultMemoryCostLimitValue.wrappedValue }
        set { defaultMemoryCostLimitValue.wrappedValue = max(0, newValue) }
    }
    private static let defaultMemoryCostLimitValue =
        SDLocked(
            wrappedValue: Int(clamping: SDProcessMemory.limitBytes() / 4 / UInt64(SDWebImageCoderHelper.bytesPerPixel)))

    /// The limit this cache's memory cache keeps while `maxMemoryCost` is 0 (see `defaultMemoryCostLimit`).
    public var memoryCostLimitWhenUnset: Int {
        get { memCache.fallbackTotalCostLimit }
        set { memCache.fallbackTotalCostLimit = newValue }
    }

    /// The memory cache's total cost limit (pixels; 0 means none: then `memoryCostLimitWhenUnset` applies).
    public var maxMemoryCost: UInt {
        get { UInt(memCache.totalCostLimit) }
        set { memCache.totalCostLimit = Int(clamping: newValue) }
    }

    /// The memory cache's count limit (0 means none).
    public var maxMemoryCountLimit: UInt {
        get { UInt(memCache.countLimit) }
        set { memCache.countLimit = Int(clamping: newValue) }
    }

    // MARK: Queues

    /// Where asynchronous completions and asynchronous `done` blocks run. Default `.main`.
    public var completionQueue: DispatchQueue {
        get { stateLock.withLock { _completionQueue } }
        set { stateLock.withLock { _completionQueue = newValue } }
    }

    /// Whether the calling code runs on this cache's `ioQueue`.
    public var isOnIOQueue: Bool {
        DispatchQueue.getSpecific(key: SDImageCache.ioQueueKey) == ObjectIdentifier(ioQueueMarker)
    }

    /// Runs `block` on the io queue and waits for it; runs it at once when already there (the original would
    /// deadlock calling its synchronous methods from the io queue).
    func syncOnIOQueue<T>(_ block: () throws -> T) rethrows -> T {
        if isOnIOQueue { return try block() }
        return try ioQueue.sync(execute: block)
    }

    /// Calls `block` on the completion queue, later.
    func callBack(_ block: @escaping @Sendable () -> Void) {
        completionQueue.async(execute: block)
    }

    // MARK: Lifecycle

    private func subscribeToLifecycleNotifications() {
        let center = NotificationCenter.default
        let terminate = center.addObserver(forName: UIApplication.willTerminateNotification, object: nil, queue: nil) {
            [weak self] _ in self?.deleteOldFiles(completionBlock: nil)
        }
        let background = center.addObserver(
            forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: nil
        ) {
            [weak self] _ in self?.backgroundDeleteOldFiles()
        }
        stateLock.withLock { lifecycleObservers = [terminate, background] }
    }

    /// Ports `-backgroundDeleteOldFiles`. The original (iOS and tvOS only) asks UIApplication for a background
    /// task so the app is not suspended mid-cleanup; a Linux process is not suspended, so only the cleanup remains.
    func backgroundDeleteOldFiles() {
        deleteOldFiles(completionBlock: nil)
    }
}

/// An object whose identity marks one cache's io queue.
private final class IOQueueMarker: Sendable {}
