import CQueueLabel
import Foundation
import SDPort
import SDPortTestSupport

/// A downloader operation that stops once, on its coder queue, at the first read of `isExecuting`: the read in
/// `done()`, after `complete(image:data:error:)` took the snapshot of its callbacks and before the operation is
/// finished (MUS-05). `armed` chooses the one operation that stops; `reached` and `release` are the gate.
final class MUSGatedFinishOperation: SDWebImageDownloaderOperation, @unchecked Sendable {
    /// True until an operation has stopped; set by the test.
    static let armed = Locked(false)
    static let reached = DispatchSemaphore(value: 0)
    static let release = DispatchSemaphore(value: 0)
    private static let coderQueueLabel = "com.hackemist.SDWebImageDownloaderOperationCoderQueue"

    override var isExecuting: Bool {
        if String(cString: sdport_current_queue_label()) == Self.coderQueueLabel {
            var stop = false
            Self.armed.update { armed in
                stop = armed
                armed = false
            }
            if stop {
                Self.reached.signal()
                _ = Self.release.wait(timeout: .now() + 30)
            }
        }
        return super.isExecuting
    }
}
