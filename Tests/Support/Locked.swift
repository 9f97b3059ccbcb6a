import Foundation

/// A value shared between a test and closures on other threads, guarded by a lock.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    public init(_ value: Value) { stored = value }

    public var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Changes the value under the lock (for read-modify-write, such as appending).
    public func update(_ change: (inout Value) -> Void) {
        lock.withLock { change(&stored) }
    }
}
