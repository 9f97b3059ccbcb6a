import Foundation

/// A property whose every read and write takes its own lock, for settings that may change from any thread and
/// are read one at a time (a port helper; the original relies on `atomic`/`nonatomic` property attributes).
/// Settings that must be read together consistently keep one lock for all of them instead.
@propertyWrapper
public final class SDLocked<Value>: @unchecked Sendable {
    /// Guards `value`.
    private let lock = NSLock()
    private var value: Value

    public init(wrappedValue: Value) {
        value = wrappedValue
    }

    public var wrappedValue: Value {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
