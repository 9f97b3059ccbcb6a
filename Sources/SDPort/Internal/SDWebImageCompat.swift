import Foundation

/// Marks each queue passed to `dispatch_queue_async_safe` with its own label, so "am I on it" can be
/// asked later. Linux's libdispatch has no way to read the current queue's label (the original compares
/// `dispatch_queue_get_label(DISPATCH_CURRENT_QUEUE_LABEL)` with the target's label), but a
/// dispatch-specific value answers the same question and follows target queues.
private let queueLabelKey = DispatchSpecificKey<String>()

/// Ports the `dispatch_queue_async_safe` macro from `SDWebImageCompat.h` (4.4.8): runs `block` at once
/// when the caller is already on `queue`, otherwise submits it asynchronously to `queue`.
/// At tag 4.4.8: `SDWebImage/SDWebImageCompat.h:97` (`dispatch_queue_async_safe`).
public func dispatch_queue_async_safe(_ queue: DispatchQueue, _ block: @escaping @Sendable () -> Void) {
    if queue.getSpecific(key: queueLabelKey) == nil {
        queue.setSpecific(key: queueLabelKey, value: queue.label)
    }
    if DispatchQueue.getSpecific(key: queueLabelKey) == queue.label {
        block()
    } else {
        queue.async(execute: block)
    }
}

/// Ports the `dispatch_main_async_safe` macro (FAQ-14): the check is "am I on the main **queue**", not
/// "am I on the main thread". A block already running on the main queue runs at once; anything else,
/// including code on the main thread that is not running a main-queue block, goes through the queue.
///
/// On Linux the main queue is drained by `dispatchMain()`, by the main `RunLoop` (XCTest's waits run it),
/// or by Swift's main actor executor; a program must do one of them or main-queue blocks never run.
/// At tag 4.4.8: `SDWebImage/SDWebImageCompat.h:106` (`dispatch_main_async_safe`).
public func dispatch_main_async_safe(_ block: @escaping @Sendable () -> Void) {
    dispatch_queue_async_safe(DispatchQueue.main, block)
}
