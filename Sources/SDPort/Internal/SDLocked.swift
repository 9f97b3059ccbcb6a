import Foundation

/// A value whose every read and write takes its own lock (a port helper; the original guards its state with
/// `@synchronized` blocks and semaphores). As a property wrapper it guards one setting; holding a whole settings
/// struct, it is the one lock of a class whose settings must be read together (`withLock` reads or changes several at
/// once).
@propertyWrapper
public final class SDLocked<Value>: @unchecked Sendable {
    /// Guards `value`.
    private let lock = NSLock()
    private var value: Value

    /// Holds `wrappedValue`.
    public init(wrappedValue: Value) {
        value = wrappedValue
    }

    /// The value, read or written under the lock.
    public var wrappedValue: Value {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }

    /// Reads or changes the value under the lock, in one step.
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try lock.withLock { try body(&value) }
    }

    /// One field of the value, read or written under the lock.
    public subscript<T>(_ field: WritableKeyPath<Value, T>) -> T {
        get { lock.withLock { value[keyPath: field] } }
        set { lock.withLock { value[keyPath: field] = newValue } }
    }
}
