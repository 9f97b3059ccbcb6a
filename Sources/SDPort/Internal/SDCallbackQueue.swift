import CQueueLabel
import Foundation

/// Where, and how, the 5.x flow calls a completion: a dispatch queue and an `SDCallbackPolicy`.
///
/// Ports `SDCallbackQueue` (`SDCallbackQueue.m`, 5.21.5), the value of the context's `callbackQueue`. The 5.x flow
/// (the manager's 5.x `loadImage`, its cache query and loader, the 5.x view entry) calls back through one of these;
/// the 4.4.8 flow keeps `dispatch_queue_async_safe`. What the policies do is `SDCallbackPolicy`'s documentation.
///
/// Differences from 5.21.5:
/// - Without a `callbackQueue` in the context, 5.21.5 uses `SDCallbackQueue.main`. The port keeps its per-object
///   `completionQueue` (manager, cache, downloader; main by default, for programs without a main run loop) and
///   calls back through `SDCallbackQueue(completionQueue:)`: for the main queue that is `main`, so the default is
///   5.21.5's.
/// - 5.x's `currentQueue` (`dispatch_get_current_queue`) and the deprecated `sync:` are not ported: Swift's
///   Dispatch on Linux cannot name the queue the caller runs on.
/// - A `DispatchQueue` under `callbackQueue` (how the port took it before it had this type) still works: it is
///   wrapped with `.safeExecute`.
///
/// `policy` may be changed at any time, as in 5.x; it has a lock of its own.
/// At tag 5.21.5: `SDWebImage/Core/SDCallbackQueue.m:47` (`SDCallbackQueue`), `SDWebImage/Core/SDCallbackQueue.m:98` (`-async:`).
public final class SDCallbackQueue: Sendable {
    /// The dispatch queue blocks go to (unused by `.invoke`).
    public let queue: DispatchQueue
    /// Guards the policy.
    private let storedPolicy: SDLocked<SDCallbackPolicy>

    /// How `async` runs a block.
    public var policy: SDCallbackPolicy {
        get { storedPolicy.wrappedValue }
        set { storedPolicy.wrappedValue = newValue }
    }

    /// A callback queue on `dispatchQueue` with the `.safeExecute` policy.
    public init(dispatchQueue: DispatchQueue) {
        queue = dispatchQueue
        storedPolicy = SDLocked(wrappedValue: .safeExecute)
    }

    /// The main queue with the `.safeAsyncMainThread` policy: 5.21.5's default callback queue. A new object each
    /// time, as 5.21.0 and later make one per call (5.15.0–5.20.1 share one, with the default policy).
    public static var main: SDCallbackQueue {
        let queue = SDCallbackQueue(dispatchQueue: .main)
        queue.policy = .safeAsyncMainThread
        return queue
    }

    /// A global concurrent queue (user-initiated, 5.21.5's `DISPATCH_QUEUE_PRIORITY_HIGH`) with `.safeExecute`.
    public static var global: SDCallbackQueue {
        SDCallbackQueue(dispatchQueue: .global(qos: .userInitiated))
    }

    /// The callback queue for one of the port's `completionQueue` settings: `main` for the main queue (so the
    /// default behaves as 5.x's default), else the queue with `.safeExecute`.
    public convenience init(completionQueue: DispatchQueue) {
        self.init(dispatchQueue: completionQueue)
        if Self.isMainQueue(completionQueue) { policy = .safeAsyncMainThread }
    }

    /// Runs `block` as the policy says (5.x's `async:`).
    public func async(_ block: @escaping @Sendable () -> Void) {
        switch policy {
        case .safeExecute:
            // 5.21.5 compares the queue with the current one, then special-cases the main queue on the main thread.
            if sd_isCurrentQueue(queue) || (Thread.isMainThread && Self.isMainQueue(queue)) {
                block()
            } else {
                queue.async(execute: block)
            }
        case .dispatch:
            queue.async(execute: block)
        case .invoke:
            block()
        case .safeAsyncMainThread:
            if Thread.isMainThread {
                block()
            } else {
                DispatchQueue.main.async(execute: block)
            }
        }
    }

    /// Whether `queue` is the main queue itself (not a queue that targets it), by its label pointer, as
    /// `sd_isCurrentQueue` tells queues apart.
    static func isMainQueue(_ queue: DispatchQueue) -> Bool {
        guard let object = queue.sd_dispatchObject else { return queue.label == DispatchQueue.main.label }
        return sdport_is_main_queue_object(object) != 0
    }
}
