import Foundation

/// The cancel handle of one `SDImageFileLoader` request.
///
/// Not a type of the original (a 5.x custom loader returns whatever operation it likes). `isCancelled` is guarded
/// by `lock`.
public final class SDImageFileLoaderOperation: SDWebImageOperation, @unchecked Sendable {
    /// The file URL being read.
    public let url: URL
    /// Guards `cancelled`.
    private let lock = NSLock()
    private var cancelled = false

    init(url: URL) {
        self.url = url
    }

    /// Whether `cancel()` was called; a cancelled request calls no completion.
    public var isCancelled: Bool { lock.withLock { cancelled } }

    /// Stops the request: if the file has not been read yet it never is, and the completion is not called.
    public func cancel() {
        lock.withLock { cancelled = true }
    }
}
