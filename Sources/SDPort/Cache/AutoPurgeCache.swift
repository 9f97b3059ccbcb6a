import Foundation

/// A thread-safe memory cache with `NSCache`'s interface and contract, evicting the least recently used
/// entry first, that empties itself when `UIApplication.didReceiveMemoryWarningNotification` is posted.
///
/// Ports `SDMemoryCache` (the private `NSCache` subclass at the top of `SDImageCache.m`, 4.4.8; 4.0–4.2 had
/// `AutoPurgeCache` there, 4.3.0 a plain `NSCache`), including its weak side table (since 4.3.1; optional through
/// `shouldUseWeakMemoryCache` since 4.4.2; the original has the table and the warning purge on iOS and tvOS only): when
/// `weakCacheEnabled` answers true, every object set is also remembered weakly, a memory warning drops only the strong
/// entries, and a later `object(forKey:)` finds an object that something else still keeps alive and puts it back.
/// `removeObject` and `removeAllObjects` clear both. 5.x moves this into `SDMemoryCache.m` with the same behaviour
/// (weak table off by default since 5.12).
///
/// Linux forces a difference: Foundation's `NSCache` in swift-corelibs-foundation is not least-recently-used —
/// with equal costs it evicts the entry just inserted, reads do not refresh recency, and inserts with varying
/// costs walk a sorted list (measured on swift-corelibs-foundation). This class therefore does not subclass
/// `NSCache`; it keeps its own store (`AutoPurgeCacheStorage`): an array of slots, a hash index from key to slot,
/// and a doubly linked list threaded through the slots (most recent at the head), so get, set and evict are O(1).
///
/// Limits follow `NSCache`: 0 means no limit; `countLimit` bounds the number of entries and `totalCostLimit`
/// the sum of the costs given to `setObject(_:forKey:cost:)`. An object whose cost alone exceeds the cost limit
/// is evicted at once, as `NSCache` may do. No delegate and no `NSDiscardableContent` support.
///
/// All state is guarded by `lock`. Evicted objects are released after the lock is dropped, so an object's
/// `deinit` can never run inside the lock.
/// At tag 4.4.8: `SDWebImage/SDImageCache.m:21` (`SDMemoryCache`), `SDWebImage/SDImageCache.m:71` (`-setObject:forKey:cost:`), `SDWebImage/SDImageCache.m:86` (`-objectForKey:`).
/// At tag 5.21.5: `SDWebImage/Core/SDMemoryCache.m:84` (`-setObject:forKey:cost:`), `SDWebImage/Core/SDMemoryCache.m:97` (`-objectForKey:`).
public final class AutoPurgeCache<Key: Hashable & Sendable, Value: AnyObject & Sendable>: @unchecked Sendable {
    // The hot paths (get, set, remove) are @inlinable, so callers in other modules get code specialised for
    // their key and value types; the state they touch is therefore @usableFromInline rather than private.

    /// Guards `storage` and `_name`.
    @usableFromInline let lock = NSLock()
    /// Every access holds `lock`, so Swift's run-time exclusivity check (a call on every access to a class's stored
    /// property) can only ever pass: it is turned off here, the one hot field.
    @exclusivity(unchecked) @usableFromInline var storage = AutoPurgeCacheStorage<Key, Value>()
    private var _name = ""

    /// Asked on every access whether the weak side table is in use (SDImageCache passes its config's
    /// `shouldUseWeakMemoryCache`, which can change at any time).
    @usableFromInline let weakCacheEnabled: @Sendable () -> Bool
    /// Set once in `init`, read in `deinit`.
    private var memoryWarningObserver: NSObjectProtocol?

    /// A cache with no limits.
    /// - Parameters:
    ///   - weakCacheEnabled: whether objects are also kept in the weak side table; asked on every access.
    ///   - purgesOnMemoryWarning: whether to observe `UIApplication.didReceiveMemoryWarningNotification`.
    public init(weakCacheEnabled: @escaping @Sendable () -> Bool = { false }, purgesOnMemoryWarning: Bool = true) {
        self.weakCacheEnabled = weakCacheEnabled
        guard purgesOnMemoryWarning else { return }
        // The observer holds the cache weakly, so a cache nobody uses any more can go away. It runs on the
        // posting thread, so the cache is already empty when `post` returns.
        memoryWarningObserver = NotificationCenter.default.addObserver(
            forName: UIApplication.didReceiveMemoryWarningNotification, object: nil, queue: nil
        ) { [weak self] _ in self?.didReceiveMemoryWarning() }
    }

    deinit {
        if let memoryWarningObserver {
            NotificationCenter.default.removeObserver(memoryWarningObserver)
        }
    }

    // MARK: NSCache's interface

    /// A name for the cache (`NSCache.name`); SDImageCache sets its full namespace.
    public var name: String {
        get { lock.withLock { _name } }
        set { lock.withLock { _name = newValue } }
    }

    /// The most objects the cache holds; 0 (the default) means no limit.
    public var countLimit: Int {
        get { lock.withLock { storage.countLimit } }
        set { setLimit { $0.countLimit = max(0, newValue) } }
    }

    /// The most total cost the cache holds; 0 (the default) means no limit.
    public var totalCostLimit: Int {
        get { lock.withLock { storage.totalCostLimit } }
        set { setLimit { $0.totalCostLimit = max(0, newValue) } }
    }

    /// The cost limit that applies while `totalCostLimit` is 0 (port addition, 0 = none): on iOS the system
    /// purges NSCache under memory pressure, on Linux nothing does, so `SDImageCache` sets a limit derived from
    /// the memory the process may use (`SDImageCache.defaultMemoryCostLimit`). A `totalCostLimit` set by the
    /// program wins.
    public var fallbackTotalCostLimit: Int {
        get { lock.withLock { storage.fallbackTotalCostLimit } }
        set { setLimit { $0.fallbackTotalCostLimit = max(0, newValue) } }
    }

    /// The object for `key`, which becomes the most recently used; nil when absent. With the weak side table
    /// on, an object evicted or purged from the strong store but still alive elsewhere is found and put back.
    @inlinable
    public func object(forKey key: Key) -> Value? {
        // A strong hit (the common case) needs neither the weak setting nor a list of evicted objects.
        if let found = lock.withLock({ storage.strongObject(forKey: key) }) { return found }
        let useWeak = weakCacheEnabled()
        var evicted: [Value] = []
        let found = lock.withLock { storage.object(forKey: key, useWeak: useWeak, evicted: &evicted) }
        _ = evicted  // released here, outside the lock
        return found
    }

    /// Sets `object` for `key` with cost 0.
    @inlinable
    public func setObject(_ object: Value, forKey key: Key) {
        setObject(object, forKey: key, cost: 0)
    }

    /// Sets `object` for `key` as the most recently used entry, then evicts the least recently used entries
    /// until both limits hold.
    @inlinable
    public func setObject(_ object: Value, forKey key: Key, cost: Int) {
        let useWeak = weakCacheEnabled()
        var evicted: [Value] = []
        let replaced = lock.withLock {
            storage.setObject(object, forKey: key, cost: max(0, cost), useWeak: useWeak, evicted: &evicted)
        }
        _ = (evicted, replaced)  // released here, outside the lock
    }

    /// Removes the object for `key` (from the weak side table too).
    @inlinable
    public func removeObject(forKey key: Key) {
        let removed = lock.withLock { storage.removeObject(forKey: key) }
        _ = removed
    }

    /// Removes every object (from the weak side table too).
    public func removeAllObjects() {
        let dropped = lock.withLock {
            () -> ([AutoPurgeCacheStorage<Key, Value>.Slot], [Key: AutoPurgeCacheStorage<Key, Value>.WeakEntry]) in
            defer { storage.weakEntries = [:] }
            return (storage.resetStrongStore(), storage.weakEntries)
        }
        _ = dropped
    }

    // MARK: Port additions (for tests, tools and SDImageCache)

    /// The number of objects held strongly.
    public var count: Int { lock.withLock { storage.count } }

    /// The sum of the costs of the objects held strongly.
    public var totalCost: Int { lock.withLock { storage.totalCost } }

    /// The keys held strongly, most recently used first.
    public var keysByRecency: [Key] { lock.withLock { storage.keysByRecency } }

    /// What the memory warning does: drops the strong entries and keeps the weak side table, as
    /// `-[SDMemoryCache didReceiveMemoryWarning:]` does.
    public func didReceiveMemoryWarning() {
        let dropped = lock.withLock { storage.resetStrongStore() }
        _ = dropped
    }

    private func setLimit(_ change: (inout AutoPurgeCacheStorage<Key, Value>) -> Void) {
        var evicted: [Value] = []
        lock.withLock {
            change(&storage)
            storage.trim(into: &evicted)
        }
        _ = evicted
    }
}
