import Foundation

/// The running loads of a view, by operation key, holding each operation weakly.
///
/// Ports the `NSMapTable` with strong keys and weak values that `UIView+WebCacheOperation.m` (4.4.8) keeps in an
/// associated object. The value is weak because the manager's `runningOperations` owns the operation; once a
/// load finishes and the manager lets go, the entry reads as nil here. Main-actor confined, like the views.
/// At tag 4.4.8: `SDWebImage/UIView+WebCacheOperation.m:16` (`SDOperationsDictionary`), `SDWebImage/UIView+WebCacheOperation.m:20` (`-sd_operationDictionary`).
@MainActor
public struct SDOperationsDictionary {
    /// A weak reference to one operation.
    private struct WeakOperation {
        weak var operation: (any SDWebImageOperation)?
    }

    private var storage: [String: WeakOperation] = [:]

    /// An empty table.
    public init() {}

    /// The operation for `key`, or nil when there is none or it has been released.
    public subscript(key: String) -> (any SDWebImageOperation)? {
        get { storage[key]?.operation }
        set {
            if let newValue {
                storage[key] = WeakOperation(operation: newValue)
            } else {
                storage.removeValue(forKey: key)
            }
        }
    }

    /// Forgets the entry for `key`.
    public mutating func removeValue(forKey key: String) {
        storage.removeValue(forKey: key)
    }

    /// Every operation still alive.
    public var liveOperations: [any SDWebImageOperation] {
        storage.values.compactMap { $0.operation }
    }

    /// Forgets every entry.
    public mutating func removeAll() {
        storage.removeAll()
    }

    /// The keys whose operation is still alive.
    public var liveKeys: [String] {
        storage.compactMap { $0.value.operation == nil ? nil : $0.key }.sorted()
    }
}
