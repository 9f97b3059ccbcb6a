import Foundation

/// The store behind `AutoPurgeCache`: an array of slots that holds each key, object and cost once, a doubly linked
/// recency list threaded through the slots (most recent at the head), a hash index from key to slot
/// (`AutoPurgeCacheIndex`), and the weak side table. A value type, so the cache touches it with one exclusive access
/// per operation (`lock.withLock { storage.… }`) instead of one dynamic exclusivity check per field of the class it
/// would otherwise be; that, one hash per operation and the key kept once are what bring the LRU close to a locked
/// `Dictionary` (`sdport-bench cache`).
///
/// Not a type of the original: the state of `SDMemoryCache` (`SDImageCache.m:21-141`, 4.4.8), whose strong entries
/// its NSCache keeps inside Foundation, and whose weak table (iOS and tvOS only) is an `NSMapTable` of its own. Not
/// thread-safe by itself; `AutoPurgeCache` guards it with its lock.
/// At tag 4.4.8: `SDWebImage/SDImageCache.m:21` (`SDMemoryCache`).
@usableFromInline
struct AutoPurgeCacheStorage<Key: Hashable, Value: AnyObject> {
    /// One slot of the recency list. A free slot has a nil key and value.
    @usableFromInline
    struct Slot {
        @usableFromInline var key: Key?
        @usableFromInline var value: Value?
        @usableFromInline var cost: Int
        /// The key's hash, for the index (so removing and growing never hash again).
        @usableFromInline var hash: Int
        @usableFromInline var newer: Int
        @usableFromInline var older: Int

        @inlinable
        init(key: Key?, value: Value?, cost: Int, hash: Int, newer: Int, older: Int) {
            self.key = key
            self.value = value
            self.cost = cost
            self.hash = hash
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

    @usableFromInline var slots: [Slot] = []
    @usableFromInline var freeSlots: [Int] = []
    @usableFromInline var index = AutoPurgeCacheIndex()
    /// Most recently used slot, or `none`.
    @usableFromInline var newest = -1
    /// Least recently used slot, or `none`; evicted first.
    @usableFromInline var oldest = -1
    @usableFromInline var totalCost = 0
    @usableFromInline var countLimit = 0
    @usableFromInline var totalCostLimit = 0
    @usableFromInline var fallbackTotalCostLimit = 0
    @usableFromInline var weakEntries: [Key: WeakEntry] = [:]

    @inlinable init() {}

    // MARK: Operations (the cache's, one exclusive access each)

    /// The number of entries held strongly.
    @inlinable var count: Int { index.count }

    /// Where the index's probe for `key` ends (`hash` is the key's): its slot, or the free position for it.
    @inlinable
    func probe(forKey key: Key, hash: Int) -> (position: Int, slot: Int?) {
        slots.withUnsafeBufferPointer { slots in index.find(hash: hash) { slots[$0].key == key } }
    }

    /// The slot holding `key`, found through the index.
    @inlinable
    func slot(forKey key: Key) -> Int? {
        probe(forKey: key, hash: key.hashValue).slot
    }

    /// The object held strongly for `key`, made the most recent; nil when it is not held strongly.
    @inlinable
    mutating func strongObject(forKey key: Key) -> Value? {
        guard let found = slot(forKey: key) else { return nil }
        moveToNewest(found)
        return slots[found].value
    }

    /// The object for `key`, made the most recent; with `useWeak`, an object gone from the strong store but alive
    /// elsewhere is found in the side table and put back (evicting what the limits then require).
    @inlinable
    mutating func object(forKey key: Key, useWeak: Bool, evicted: inout [Value]) -> Value? {
        if let found = strongObject(forKey: key) { return found }
        guard useWeak, let entry = weakEntries[key] else { return nil }
        guard let alive = entry.value else {
            weakEntries[key] = nil
            return nil
        }
        insertStrong(alive, forKey: key, cost: entry.cost)
        trim(into: &evicted)
        return alive
    }

    /// Sets `object` as the most recent entry for `key`, then evicts until the limits hold. Returns a replaced
    /// object, so the caller can release it outside the lock.
    @inlinable
    mutating func setObject(_ object: Value, forKey key: Key, cost: Int, useWeak: Bool, evicted: inout [Value])
        -> Value?
    {
        let replaced = insertStrong(object, forKey: key, cost: cost)
        if useWeak {
            weakEntries[key] = WeakEntry(value: object, cost: cost)
            pruneDeadWeakEntriesIfLarge()
        }
        trim(into: &evicted)
        return replaced
    }

    /// Removes the entry for `key`, from the side table too; returns its object.
    @inlinable
    mutating func removeObject(forKey key: Key) -> Value? {
        weakEntries[key] = nil
        guard let found = slot(forKey: key) else { return nil }
        return unlink(found)
    }

    /// Empties the strong store; returns its slots, to be released outside the lock.
    mutating func resetStrongStore() -> [Slot] {
        defer {
            slots = []
            freeSlots = []
            index.removeAll()
            newest = Self.none
            oldest = Self.none
            totalCost = 0
        }
        return slots
    }

    /// The keys held strongly, most recent first.
    var keysByRecency: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(count)
        var slot = newest
        while slot != Self.none {
            if let key = slots[slot].key { keys.append(key) }
            slot = slots[slot].older
        }
        return keys
    }

    // MARK: The recency list

    /// Inserts or replaces the strong entry for `key` at the head, hashing the key once.
    @inlinable @discardableResult
    mutating func insertStrong(_ object: Value, forKey key: Key, cost: Int) -> Value? {
        let hash = key.hashValue
        let place = probe(forKey: key, hash: hash)
        if let existing = place.slot {
            let previous = slots[existing].value
            totalCost += cost - slots[existing].cost
            slots[existing].value = object
            slots[existing].cost = cost
            moveToNewest(existing)
            return previous
        }
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = Slot(key: key, value: object, cost: cost, hash: hash, newer: Self.none, older: Self.none)
        } else {
            slot = slots.count
            slots.append(Slot(key: key, value: object, cost: cost, hash: hash, newer: Self.none, older: Self.none))
        }
        index.insert(slot: slot, hash: hash, at: place.position)
        linkAsNewest(slot)
        totalCost += cost
        return nil
    }

    @inlinable
    mutating func moveToNewest(_ slot: Int) {
        guard slot != newest else { return }
        detach(slot)
        linkAsNewest(slot)
    }

    /// Puts a slot that is in no list at the head.
    @inlinable
    mutating func linkAsNewest(_ slot: Int) {
        let previousNewest = newest
        slots.withUnsafeMutableBufferPointer { slots in
            slots[slot].newer = Self.none
            slots[slot].older = previousNewest
            if previousNewest != Self.none { slots[previousNewest].newer = slot }
        }
        newest = slot
        if oldest == Self.none { oldest = slot }
    }

    /// Takes the slot out of the list without freeing it. The links are rewritten on the array's buffer: one
    /// uniqueness check for the whole step rather than one per field.
    @inlinable
    mutating func detach(_ slot: Int) {
        var newest = self.newest
        var oldest = self.oldest
        slots.withUnsafeMutableBufferPointer { slots in
            let newer = slots[slot].newer
            let older = slots[slot].older
            if newer != Self.none { slots[newer].older = older } else { newest = older }
            if older != Self.none { slots[older].newer = newer } else { oldest = newer }
        }
        self.newest = newest
        self.oldest = oldest
    }

    /// Removes the slot's entry and frees the slot; returns its object.
    @inlinable
    mutating func unlink(_ slot: Int) -> Value? {
        detach(slot)
        let value = slots[slot].value
        index.remove(slot: slot, hash: slots[slot].hash)
        totalCost -= slots[slot].cost
        slots[slot] = Slot(key: nil, value: nil, cost: 0, hash: 0, newer: Self.none, older: Self.none)
        freeSlots.append(slot)
        return value
    }

    /// `totalCostLimit`, or the fallback when that is 0.
    @inlinable var effectiveCostLimit: Int { totalCostLimit > 0 ? totalCostLimit : fallbackTotalCostLimit }

    /// Evicts from the old end until the count and cost limits hold.
    @inlinable
    mutating func trim(into evicted: inout [Value]) {
        while oldest != Self.none,
            (countLimit > 0 && count > countLimit) || (effectiveCostLimit > 0 && totalCost > effectiveCostLimit)
        {
            if let value = unlink(oldest) { evicted.append(value) }
        }
    }

    /// Drops side-table entries whose objects are gone, when the table has grown well past the strong store.
    @inlinable
    mutating func pruneDeadWeakEntriesIfLarge() {
        guard weakEntries.count > max(256, 2 * count) else { return }
        weakEntries = weakEntries.filter { $0.value.value != nil }
    }
}
