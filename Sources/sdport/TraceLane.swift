import SDPort

/// The queues the flow runs on, as the trace names them: the lane of a sequence diagram and the "queue" column of
/// `load --trace`. Read from `SDWebImageTraceEvent.queue`, the label of the queue the step ran on.
enum TraceLane: String, CaseIterable, Sendable {
    case main
    /// `SDImageCache`'s serial io queue (`com.hackemist.SDWebImageCache`).
    case ioQueue
    /// `SDWebImageDownloader`'s `OperationQueue` (`com.hackemist.SDWebImageDownloader`): operations start here.
    case downloadQueue
    /// Each `SDWebImageDownloaderOperation`'s serial coder queue.
    case coderQueue
    /// The curl session's serial delegate queue (NSURLSession's delegate queue in the original).
    case delegateQueue
    /// A global concurrent queue (the manager's transform and serializer hop).
    case globalQueue
    /// Anything else (a thread no queue started, a caller's own queue).
    case other

    /// The lane of an event.
    init(_ event: SDWebImageTraceEvent) {
        self.init(queueLabel: event.queue, isMainThread: event.isMainThread)
    }

    init(queueLabel label: String, isMainThread: Bool) {
        switch label {
        case "com.apple.main-thread": self = .main
        case _ where label.hasPrefix(SDImageCache.ioQueueLabel): self = .ioQueue
        case "com.hackemist.SDWebImageDownloader": self = .downloadQueue
        case "com.hackemist.SDWebImageDownloaderOperationCoderQueue": self = .coderQueue
        case "com.hackemist.SDWebImageCurlSession.delegateQueue": self = .delegateQueue
        case _ where label.hasPrefix("com.apple.root."): self = .globalQueue
        default: self = isMainThread ? .main : .other
        }
    }

    /// The name a diagram's lane shows.
    var title: String {
        switch self {
        case .main: return "main queue"
        case .ioQueue: return "cache io queue"
        case .downloadQueue: return "download queue"
        case .coderQueue: return "coder queue"
        case .delegateQueue: return "session delegate queue"
        case .globalQueue: return "global queue"
        case .other: return "other thread"
        }
    }

    /// The queue's label in the port, as `dispatch_queue_get_label` reports it.
    var label: String {
        switch self {
        case .main: return "com.apple.main-thread"
        case .ioQueue: return SDImageCache.ioQueueLabel
        case .downloadQueue: return "com.hackemist.SDWebImageDownloader"
        case .coderQueue: return "com.hackemist.SDWebImageDownloaderOperationCoderQueue"
        case .delegateQueue: return "com.hackemist.SDWebImageCurlSession.delegateQueue"
        case .globalQueue: return "com.apple.root.user-initiated-qos"
        case .other: return "-"
        }
    }
}
