/// A point between the ten steps (`SDWebImageFlowStep`) where work changes hands that the steps alone do not
/// show: the download operation starting on the downloader's queue, or being cancelled. The sequence diagrams
/// (`sdport diagram`) draw them; `SDWebImageTrace` reports them only to observers that ask for marks, so a
/// listener of the ten steps sees exactly the ten.
///
/// Not in the original, which has no tracing. The operation's `-start` runs on a thread of the downloader's
/// `NSOperationQueue`; its `-cancel` on the caller's.
/// At tag 4.4.8: `SDWebImage/SDWebImageDownloaderOperation.m:127` (`-start`), `SDWebImage/SDWebImageDownloaderOperation.m:207` (`-cancel`).
public enum SDWebImageFlowMark: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The operation's `start()`: the download queue has given it a thread.
    case operationStart = "operation: start"
    /// The operation's `cancel()`: its last caller left, or the downloader was told to cancel everything.
    case operationCancel = "operation: cancel"

    /// The mark's name as the trace prints it ("operation: start").
    public var description: String { rawValue }

    /// The step the mark belongs to (both are part of step 5's "start or join a download").
    public var step: SDWebImageFlowStep { .downloadStart }
}
