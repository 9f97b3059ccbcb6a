import Foundation

/// A weak reference a test can fill from any thread and poll until it becomes nil (leak tests: nothing keeps
/// an operation, its data or its image alive once the work is over). Guarded by `lock`.
public final class WeakReference: @unchecked Sendable {
    private let lock = NSLock()
    private weak var stored: AnyObject?
    /// Whether an object was ever stored: a reference that was never set proves nothing.
    private var wasSet = false

    public init() {}

    public var object: AnyObject? {
        get { lock.withLock { stored } }
        set {
            lock.withLock {
                stored = newValue
                wasSet = wasSet || newValue != nil
            }
        }
    }

    public var wasEverSet: Bool { lock.withLock { wasSet } }
}
