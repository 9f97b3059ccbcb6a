import SDPort

/// The lanes of a timeline: which queue or thread an event ran on, read from its queue label (or, for work between
/// the steps, what the work was). Each lane becomes one or more tracks of a `ChromeTrace`. Not in the original, which
/// has no tracing.
public enum TimelineLane: Hashable, Sendable, Comparable {
    /// The main queue (or the main thread outside any queue).
    case main
    /// The curl session's serial delegate queue: the operations' response, data and completion callbacks.
    case delegateQueue
    /// The downloader's operation queue: operations start here.
    case downloadQueue
    /// A libcurl engine's thread: the transfers.
    case transferThread
    /// A download operation's serial coder queue (one per operation; the label is the same for all).
    case coderQueue
    /// An `SDImageCache`'s serial io queue.
    case ioQueue
    /// Any other queue, by label.
    case queue(String)
    /// A thread outside any queue, by its kernel id.
    case thread(UInt64)

    static let coderQueueLabel = "com.hackemist.SDWebImageDownloaderOperationCoderQueue"
    static let delegateQueueLabel = "com.hackemist.SDWebImageCurlSession.delegateQueue"
    static let downloadQueueLabel = "com.hackemist.SDWebImageDownloader"

    /// The lane of `event`.
    public init(_ event: TimelineEvent) {
        if event.category == "work" && event.name == "libcurl" {
            self = .transferThread
            return
        }
        switch event.queue {
        case "com.apple.main-thread": self = .main
        case Self.coderQueueLabel: self = .coderQueue
        case Self.delegateQueueLabel: self = .delegateQueue
        case Self.downloadQueueLabel: self = .downloadQueue
        case let label where label.hasPrefix(SDImageCache.ioQueueLabel): self = .ioQueue
        case "": self = event.isMainThread ? .main : .thread(event.thread)
        case let label: self = .queue(label)
        }
    }

    /// The track's name (`thread_name`); a lane with several tracks numbers them.
    public var title: String {
        switch self {
        case .main: return "main queue"
        case .delegateQueue: return "session delegate queue"
        case .downloadQueue: return "download queue"
        case .transferThread: return "transfer thread (libcurl)"
        case .coderQueue: return "coder queue"
        case .ioQueue: return "cache io queue"
        case .queue(let label): return "queue \(label)"
        case .thread(let id): return "thread \(id)"
        }
    }

    /// Top to bottom: where the work arrives (transfer), where it is decoded, stored, and handed back.
    var rank: Int {
        switch self {
        case .transferThread: return 0
        case .delegateQueue: return 1
        case .downloadQueue: return 2
        case .coderQueue: return 3
        case .ioQueue: return 4
        case .main: return 5
        case .queue: return 6
        case .thread: return 7
        }
    }

    public static func < (left: TimelineLane, right: TimelineLane) -> Bool {
        if left.rank != right.rank { return left.rank < right.rank }
        return left.title < right.title
    }
}
