import CQueueLabel
import Foundation

/// Tags each queue passed to `dispatch_queue_async_safe` with a number of its own (a dispatch-specific value), so
/// that two queues sharing a label are told apart.
private let queueTokenKey = DispatchSpecificKey<Int>()
/// The last token handed out; its lock also makes "read the queue's tag, set it when missing" one step.
private let lastQueueToken = SDLocked(wrappedValue: 0)

/// The tag of `queue`, set on first use.
private func token(of queue: DispatchQueue) -> Int {
    if let token = queue.getSpecific(key: queueTokenKey) { return token }
    return lastQueueToken.withLock { last in
        if let token = queue.getSpecific(key: queueTokenKey) { return token }
        last += 1
        queue.setSpecific(key: queueTokenKey, value: last)
        return last
    }
}

/// Whether the calling code runs on `queue` itself, as 4.4.8 decides it: the label of the queue the code runs on
/// (`dispatch_queue_get_label(DISPATCH_CURRENT_QUEUE_LABEL)`, read in C because Swift's overlay lacks it) is
/// `queue`'s label. A queue that only targets `queue` has its own label, so it is not `queue` (INT-01). The tag
/// check comes first because `DispatchQueue.getSpecific` follows target queues: it says "on `queue` or on a queue
/// that targets it", and the label then says which. 4.4.8 compares the label pointers; the port compares the
/// strings, and the tag keeps two queues with one label apart.
func sd_isCurrentQueue(_ queue: DispatchQueue) -> Bool {
    let token = token(of: queue)  // first: the queue must carry its tag before the current context is asked
    guard DispatchQueue.getSpecific(key: queueTokenKey) == token else { return false }
    return String(cString: sdport_current_queue_label()) == queue.label
}

/// Ports the `dispatch_queue_async_safe` macro from `SDWebImageCompat.h` (4.4.8): runs `block` at once
/// when the caller runs on `queue` itself (`sd_isCurrentQueue`), otherwise submits it asynchronously to `queue`.
/// At tag 4.4.8: `SDWebImage/SDWebImageCompat.h:97` (`dispatch_queue_async_safe`).
public func dispatch_queue_async_safe(_ queue: DispatchQueue, _ block: @escaping @Sendable () -> Void) {
    if sd_isCurrentQueue(queue) {
        block()
    } else {
        queue.async(execute: block)
    }
}

/// Ports the `dispatch_main_async_safe` macro (FAQ-14): the check is "am I on the main **queue**", not
/// "am I on the main thread". A block already running on the main queue runs at once; anything else,
/// including code on the main thread that is not running a main-queue block and a serial queue that targets
/// the main queue, goes through the queue.
///
/// On Linux the main queue is drained by `dispatchMain()`, by the main `RunLoop` (XCTest's waits run it),
/// or by Swift's main actor executor; a program must do one of them or main-queue blocks never run.
/// At tag 4.4.8: `SDWebImage/SDWebImageCompat.h:106` (`dispatch_main_async_safe`).
public func dispatch_main_async_safe(_ block: @escaping @Sendable () -> Void) {
    dispatch_queue_async_safe(DispatchQueue.main, block)
}
