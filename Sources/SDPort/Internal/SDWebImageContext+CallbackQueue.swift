import Foundation

/// The context's `callbackQueue`, read by the 5.x flow's cache query, loader and manager (V5-12).
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageDefine.h:254` (`SDWebImageContextCallbackQueue`).
extension Dictionary where Key == SDWebImageContextOption, Value == any Sendable {
    /// `callbackQueue`: an `SDCallbackQueue` as it is; a `DispatchQueue` (the port's earlier form) with
    /// `.safeExecute`, which is what `dispatch_queue_async_safe` did with it.
    var callbackQueue: SDCallbackQueue? {
        switch self[.callbackQueue] {
        case let queue as SDCallbackQueue: return queue
        case let queue as DispatchQueue: return SDCallbackQueue(dispatchQueue: queue)
        default: return nil
        }
    }
}
