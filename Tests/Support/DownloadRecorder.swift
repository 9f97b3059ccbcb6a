import Foundation
import SDPort

/// Records what a download reports — every progress call and every completion, with the thread it ran on —
/// for the downloader's tests (`Tests/Behavior/Downloader/DL*`, `OP*`, and the downloader's interview tests).
///
/// `onFinish` runs once, on the first completion with `finished == true`; tests fulfil an expectation there.
/// Every property is guarded by `lock`.
public final class DownloadRecorder: @unchecked Sendable {
    public struct Completion: @unchecked Sendable {  // UIImage is Sendable; Error is read-only here
        public let image: UIImage?
        public let data: Data?
        public let error: NSError?
        public let finished: Bool
        public let onMainThread: Bool
        /// Whether the block ran as a main-queue block (not merely on the main thread).
        public let onMainQueue: Bool
    }

    /// Marks the main queue so a block can tell it runs there (Linux's libdispatch cannot name the current queue).
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    private let lock = NSLock()
    private var _progress: [(received: Int, expected: Int, url: URL?)] = []
    private var _completions: [Completion] = []
    private let onFinish: (@Sendable () -> Void)?

    public init(onFinish: (@Sendable () -> Void)? = nil) {
        self.onFinish = onFinish
        _ = Self.mainQueueKey
    }

    /// Pass as the `progress` block.
    public var progress: SDWebImageDownloaderProgressBlock {
        { [self] received, expected, url in lock.withLock { _progress.append((received, expected, url)) } }
    }

    /// Pass as the `completed` block.
    public var completed: SDWebImageDownloaderCompletedBlock {
        { [self] image, data, error, finished in
            let entry = Completion(
                image: image, data: data, error: error as NSError?, finished: finished,
                onMainThread: Thread.isMainThread,
                onMainQueue: DispatchQueue.getSpecific(key: Self.mainQueueKey) == true)
            let isFirstFinish = lock.withLock { () -> Bool in
                let first = finished && !_completions.contains { $0.finished }
                _completions.append(entry)
                return first
            }
            if isFirstFinish { onFinish?() }
        }
    }

    public var progressCalls: [(received: Int, expected: Int, url: URL?)] { lock.withLock { _progress } }
    public var completions: [Completion] { lock.withLock { _completions } }
    /// Completions with `finished == true`.
    public var finalCompletions: [Completion] { completions.filter(\.finished) }
    /// The one final completion (nil when there is none).
    public var final: Completion? { finalCompletions.first }
}
