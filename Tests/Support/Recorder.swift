import Foundation

/// Collects values from any thread, in arrival order, under a lock.
public final class Recorder<Value>: @unchecked Sendable {
    /// Guards `storage`.
    private let lock = NSLock()
    private var storage: [Value] = []

    public init() {}

    public func append(_ value: Value) { lock.withLock { storage.append(value) } }
    public var values: [Value] { lock.withLock { storage } }
    public var count: Int { lock.withLock { storage.count } }
}
