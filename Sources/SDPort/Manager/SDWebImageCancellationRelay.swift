import Foundation

/// Carries a load's operation from the code that starts it to a task-cancellation handler that may run before,
/// during or after the start. Guarded by `lock`.
final class SDWebImageCancellationRelay: @unchecked Sendable {
    /// Guards `operation` and `taskCancelled`.
    private let lock = NSLock()
    private var operation: SDWebImageOperation?
    private var taskCancelled = false

    /// Called from the task's cancellation handler.
    func cancelTask() {
        let current: SDWebImageOperation? = lock.withLock {
            taskCancelled = true
            return operation
        }
        current?.cancel()
    }

    /// Called once the operation exists; cancels it at once when the task was cancelled already.
    func attach(_ newOperation: SDWebImageOperation?) {
        let cancelNow: Bool = lock.withLock {
            operation = newOperation
            return taskCancelled
        }
        if cancelNow { newOperation?.cancel() }
    }
}
