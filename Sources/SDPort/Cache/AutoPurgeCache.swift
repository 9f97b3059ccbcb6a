import Foundation

/// A thread-safe memory cache with `NSCache`'s interface and contract, evicting the least recently used
/// entry first, that empties itself when `UIApplication.didReceiveMemoryWarningNotification` is posted.
///
/// Ports `SDMemoryCache` (the private `NSCache` subclass at the top of `SDImageCache.m`, 4.4.8; 4.0–4.2 had
/// `AutoPurgeCache` there, 4.3 a plain `NSCache`), including its optional weak side table
/// (`shouldUseWeakMemoryCache`, 4.4.2+): when `weakCacheEnabled` answers true, every object set is also
/// remembered weakly, a memory warning drops only the strong entries, and a later `object(forKey:)` finds an
/// object that something else still keeps alive and puts it back. `removeObject` and `removeAllObjects` clear
/// both. 5.x moves this into `SDMemoryCache.m` with the same
/// behaviour (weak table off by default since 5.12).
///
/// Linux forces a difference: Foundation's `NSCache` in swift-corelibs-foundation is not least-recently-used —
/// with equal costs it evicts the entry just inserted, reads do not refresh recency, and inserts with varying
/// costs walk a sorted list (measured in the feasibility probe). This class therefore does not subclass
/// `NSCache`; it keeps its own store: a dictionary from key to slot, and a doubly linked list threaded through
/// an array of slots (most recent at the head), so get, set and evict are O(1).
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

    /// One slot of the recency list. A free slot has a nil key and value.
    @usableFromInline
    struct Slot {
        @usableFromInline var key: Key?
        @usableFromInline var value: Value?
        @usableFromInline var cost: Int
        @usableFromInline var newer: Int
        @usableFromInline var older: Int

        @inlinable
        init(key: Key?, value: Value?, cost: Int, newer: Int, older: Int) {
            self.key = key
            self.value = value
            self.cost = cost
            self.newer = newer
            self.older = older
        }
    }

    /// A weak reference kept in the side table, with the cost to restore it with.
    @usableFromInline
    struct WeakEntry {
        @usableFromInline weak var value: Value?
        @usableFromInline let cost: Int

        @inlinable
        init(value: Value?, cost: Int) {
            self.value = value
            self.cost = cost
        }
    }

    @inlinable static var none: Int { -1 }

    /// Guards every stored property below.
    @usableFromInline let lock = NSLock()
    @usableFromInline var slots: [Slot] = []
    @usableFromInline var freeSlots: [Int] = []
    @usableFromInline var slotForKey: [Key: Int] = [:]
    /// Most recently used slot, or `none`.
    @usableFromInline var newest = -1
    /// Least recently used slot, or `none`; evicted first.
    @usableFromInline var oldest = -1
    @usableFromInline var _totalCost = 0
    @usableFromInline var _countLimit = 0
    @usableFromInline var _totalCostLimit = 0
    @usableFromInline var _fallbackTotalCostLimit = 0
    private var _name = ""
    @usableFromInline var weakEntries: [Key: WeakEntry] = [:]

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
        get { lock.withLock { _countLimit } }
        set { setLimit { $0._countLimit = max(0, newValue) } }
    }

    /// The most total cost the cache holds; 0 (the default) means no limit.
    public var totalCostLimit: Int {
        get { lock.withLock { _totalCostLimit } }
        set { setLimit { $0._totalCostLimit = max(0, newValue) } }
    }

    /// The cost limit that applies while `totalCostLimit` is 0 (port addition, 0 = none): on iOS the system
    /// purges NSCache under memory pressure, on Linux nothing does, so `SDImageCache` sets a limit derived from
    /// the memory the process may use (`SDImageCache.defaultMemoryCostLimit`). A `totalCostLimit` set by the
    /// program wins.
    public var fallbackTotalCostLimit: Int {
        get { lock.withLock { _fallbackTotalCostLimit } }
        set { setLimit { $0._fallbackTotalCostLimit = max(0, newValue) } }
    }

    /// The object for `key`, which becomes the most recently used; nil when absent. With the weak side table
    /// on, an object evicted or purged from the strong store but still alive elsewhere is found and put back.
    @inlinable
    public func object(forKey key: Key) -> Value? {
        let useWeak = weakCacheEnabled()
        var evicted: [Value] = []
        let found: Value? = lock.withLock {
            if let index = slotForKey[key] {
                moveToNewest(index)
                return slots[index].value
            }
            guard useWeak, let entry = weakEntries[key] else { return nil }
            guard let alive = entry.value else {
                weakEntries[key] = nil
                return nil
            }
            insertStrong(alive, forKey: key, cost: entry.cost)
            trim(into: &evicted)
            return alive
        }
        _ = evicted
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
        var replaced: Value?
        lock.withLock {
            replaced = insertStrong(object, forKey: key, cost: max(0, cost))
            if useWeak {
                weakEntries[key] = WeakEntry(value: object, cost: max(0, cost))
                pruneDeadWeakEntriesIfLarge()
            }
            trim(into: &evicted)
        }
        _ = (evicted, replaced)
    }

    /// Removes the object for `key` (from the weak side table too).
    @inlinable
    public func removeObject(forKey key: Key) {
        var removed: Value?
        lock.withLock {
            if let index = slotForKey[key] { removed = unlink(index) }
            weakEntries[key] = nil
        }
        _ = removed
    }

    /// Removes every object (from the weak side table too).
    public func removeAllObjects() {
        var dropped: ([Slot], [Key: WeakEntry]) = ([], [:])
        lock.withLock {
            dropped = (slots, weakEntries)
            resetStrongStore()
            weakEntries = [:]
        }
        _ = dropped
    }

    // MARK: Port additions (for tests, tools and SDImageCache)

    /// The number of objects held strongly.
    public var count: Int { lock.withLock { slotForKey.count } }

    /// The sum of the costs of the objects held strongly.
    public var totalCost: Int { lock.withLock { _totalCost } }

    /// The keys held strongly, most recently used first.
    public var keysByRecency: [Key] {
        lock.withLock {
            var keys: [Key] = []
            keys.reserveCapacity(slotForKey.count)
            var index = newest
            while index != Self.none {
                if let key = slots[index].key { keys.append(key) }
                index = slots[index].older
            }
            return keys
        }
    }

    /// What the memory warning does: drops the strong entries and keeps the weak side table, as
    /// `-[SDMemoryCache didReceiveMemoryWarning:]` does.
    public func didReceiveMemoryWarning() {
        var dropped: [Slot] = []
        lock.withLock {
            dropped = slots
            resetStrongStore()
        }
        _ = dropped
    }

    // MARK: The recency list (call with `lock` held)

    private func setLimit(_ change: (AutoPurgeCache) -> Void) {
        var evicted: [Value] = []
        lock.withLock {
            change(self)
            trim(into: &evicted)
        }
        _ = evicted
    }

    /// Inserts or replaces the strong entry for `key` at the head; returns a replaced object so the caller can
    /// release it outside the lock.
    @inlinable @discardableResult
    func insertStrong(_ object: Value, forKey key: Key, cost: Int) -> Value? {
        if let index = slotForKey[key] {
            let previous = slots[index].value
            _totalCost += cost - slots[index].cost
            slots[index].value = object
            slots[index].cost = cost
            moveToNewest(index)
            return previous
        }
        let slot = Slot(key: key, value: object, cost: cost, newer: Self.none, older: newest)
        let index: Int
        if let reused = freeSlots.popLast() {
            index = reused
            slots[index] = slot
        } else {
            index = slots.count
            slots.append(slot)
        }
        if newest != Self.none { slots[newest].newer = index }
        newest = index
        if oldest == Self.none { oldest = index }
        slotForKey[key] = index
        _totalCost += cost
        return nil
    }

    @inlinable
    func moveToNewest(_ index: Int) {
        guard index != newest else { return }
        detach(index)
        slots[index].newer = Self.none
        slots[index].older = newest
        if newest != Self.none { slots[newest].newer = index }
        newest = index
        if oldest == Self.none { oldest = index }
    }

    /// Takes the slot out of the list without freeing it.
    @inlinable
    func detach(_ index: Int) {
        let newer = slots[index].newer
        let older = slots[index].older
        if newer != Self.none { slots[newer].older = older } else { newest = older }
        if older != Self.none { slots[older].newer = newer } else { oldest = newer }
    }

    /// Removes the slot's entry and frees the slot; returns its object.
    @inlinable
    func unlink(_ index: Int) -> Value? {
        detach(index)
        let value = slots[index].value
        if let key = slots[index].key { slotForKey[key] = nil }
        _totalCost -= slots[index].cost
        slots[index] = Slot(key: nil, value: nil, cost: 0, newer: Self.none, older: Self.none)
        freeSlots.append(index)
        return value
    }

    /// `totalCostLimit`, or the fallback when that is 0. Call with `lock` held.
    @inlinable var effectiveCostLimit: Int { _totalCostLimit > 0 ? _totalCostLimit : _fallbackTotalCostLimit }

    /// Evicts from the old end until the count and cost limits hold.
    @inlinable
    func trim(into evicted: inout [Value]) {
        while oldest != Self.none,
              (_countLimit > 0 && slotForKey.count > _countLimit) || (effectiveCostLimit > 0 && _totalCost > effectiveCostLimit) {
            if let value = unlink(oldest) { evicted.append(value) }
        }
    }

    private func resetStrongStore() {
        slots = []
        freeSlots = []
        slotForKey = [:]
        newest = Self.none
        oldest = Self.none
        _totalCost = 0
    }

    /// Drops side-table entries whose objects are gone, when the table has grown well past the strong store.
    @inlinable
    func pruneDeadWeakEntriesIfLarge() {
        guard weakEntries.count > max(256, 2 * slotForKey.count) else { return }
        weakEntries = weakEntries.filter { $0.value.value != nil }
    }
}
