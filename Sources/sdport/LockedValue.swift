import Foundation

/// A value shared between the command's task and the queues the library calls back on, guarded by `lock`.
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Changes the value under the lock and returns what `body` returns.
    func withValue<T>(_ body: (inout Value) -> T) -> T {
        lock.withLock { body(&stored) }
    }
}
