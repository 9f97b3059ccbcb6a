import Foundation

/// How an `SDCallbackQueue` runs a block: through its queue, at once, or on the main thread.
///
/// Ports `SDCallbackPolicy` (`SDCallbackQueue.h`, 5.21.5), with 5.x's raw values. 4.4.8 has no such type: its
/// image-loading completions (manager, download operation, views) go through `dispatch_main_async_safe`, which
/// runs a block at once only on the main *queue*; the cache's asynchronous ones use a plain `dispatch_async` to it.
/// At tag 5.21.5: `SDWebImage/Core/SDCallbackQueue.h:13` (`SDCallbackPolicy`).
public enum SDCallbackPolicy: UInt, Sendable {
    /// At once when the caller already runs on the queue (or on the main thread, for the main queue); otherwise
    /// dispatched to the queue. The default of a queue made with `SDCallbackQueue(dispatchQueue:)`.
    case safeExecute = 0
    /// Always dispatched to the queue, even from the queue itself.
    case dispatch = 1
    /// Always at once, on whatever thread the caller runs on; the queue is not used.
    case invoke = 2
    /// At once when the caller runs on the main thread, else dispatched to the main queue: the policy of
    /// `SDCallbackQueue.main`, 5.x's default callback queue, since 5.21.0 (5.15.0–5.20.1's `main` uses `.safeExecute`).
    /// The test is the main *thread*, so code on the main thread outside any main-queue block (a test body, a run-loop
    /// source) is called back before the call that triggered the callback returns.
    case safeAsyncMainThread = 3
}
