import Foundation

/// Resumes a checked continuation exactly once, whichever of the load's completion, its cancellation, or the
/// Swift task's cancellation comes first; later attempts are ignored. The continuation and the "resumed" state
/// are guarded by `lock`.
///
/// Port addition, used by the async/await faces of `SDWebImageManager` and the views.
final class SDWebImageContinuationOnce<Value: Sendable>: @unchecked Sendable {
    /// Guards `continuation`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, Error>?

    init(_ continuation: CheckedContinuation<Value, Error>) {
        self.continuation = continuation
    }

    func resume(with result: Result<Value, Error>) {
        let pending: CheckedContinuation<Value, Error>? = lock.withLock {
            defer { continuation = nil }
            return continuation
        }
        pending?.resume(with: result)
    }

    func resume(returning value: Value) { resume(with: .success(value)) }
    func resume(throwing error: Error) { resume(with: .failure(error)) }
}
