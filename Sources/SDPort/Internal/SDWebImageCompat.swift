import CQueueLabel
import Foundation

/// Whether the calling code runs on `queue` itself, as 4.4.8 decides it: the label pointer of the queue the code
/// runs on (`dispatch_queue_get_label(DISPATCH_CURRENT_QUEUE_LABEL)`) is `queue`'s. A queue that only targets
/// `queue` has a label of its own, so it is not `queue` (INT-01); two queues made with one label string each hold
/// their own copy, so they are told apart. Swift's Dispatch overlay exposes neither call nor the `dispatch_queue_t`
/// behind a `DispatchQueue`, so the comparison is made in C (`CQueueLabel`) on the queue object the overlay keeps
/// (`sd_dispatchObject`). Should a later overlay hide it, the label strings are compared instead.
/// (`DispatchQueue.getSpecific` is no substitute: it follows target queues.)
func sd_isCurrentQueue(_ queue: DispatchQueue) -> Bool {
    guard let object = queue.sd_dispatchObject else {
        return String(cString: sdport_current_queue_label()) == queue.label
    }
    return sdport_is_current_queue(object) != 0
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
    // The same label test as `dispatch_queue_async_safe`, made in C on libdispatch's main queue: this path runs for
    // every completion, and needs no overlay queue object at all.
    if sdport_is_main_queue() != 0 {
        block()
    } else {
        DispatchQueue.main.async(execute: block)
    }
}
