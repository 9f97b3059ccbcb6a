import Foundation

/// The store behind `AutoPurgeCache`: a dictionary from key to slot and a doubly linked recency list threaded
/// through an array of slots (most recent at the head), plus the weak side table. A value type, so the cache
/// touches it with one exclusive access per operation (`lock.withLock { storage.… }`) instead of one dynamic
/// exclusivity check per field of the class it would otherwise be; that and a single hash lookup per set are
/// what bring the LRU close to a locked `Dictionary` (`sdport-bench cache`).
///
/// Not a type of the original: the state of `SDMemoryCache` (`SDImageCache.m:21-65`, 4.4.8), whose NSCache keeps
/// it inside Foundation. Not thread-safe by itself; `AutoPurgeCache` guards it with its lock.
/// At tag 4.4.8: `SDWebImage/SDImageCache.m:21` (`SDMemoryCache`).
@usableFromInline
struct AutoPurgeCacheStorage<Key: Hashable, Value: AnyObject> {
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

    @usableFromInline var slots: [Slot] = []
    @usableFromInline var freeSlots: [Int] = []
    @usableFromInline var slotForKey: [Key: Int] = [:]
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

    /// The object for `key`, made the most recent; with `useWeak`, an object gone from the strong store but alive
    /// elsewhere is found in the side table and put back (evicting what the limits then require).
    @inlinable
    mutating func object(forKey key: Key, useWeak: Bool, evicted: inout [Value]) -> Value? {
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

    /// Sets `object` as the most recent entry for `key`, then evicts until the limits hold. Returns a replaced
    /// object, so the caller can release it outside the lock.
    @inlinable
    mutating func setObject(_ object: Value, forKey key: Key, cost: Int, useWeak: Bool, evicted: inout [Value]) -> Value? {
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
        guard let index = slotForKey[key] else { return nil }
        return unlink(index)
    }

    /// Empties the strong store; returns its slots, to be released outside the lock.
    mutating func resetStrongStore() -> [Slot] {
        defer {
            slots = []
            freeSlots = []
            slotForKey = [:]
            newest = Self.none
            oldest = Self.none
            totalCost = 0
        }
        return slots
    }

    /// The keys held strongly, most recent first.
    var keysByRecency: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(slotForKey.count)
        var index = newest
        while index != Self.none {
            if let key = slots[index].key { keys.append(key) }
            index = slots[index].older
        }
        return keys
    }

    // MARK: The recency list

    /// Inserts or replaces the strong entry for `key` at the head, with one hash lookup for a new key.
    @inlinable @discardableResult
    mutating func insertStrong(_ object: Value, forKey key: Key, cost: Int) -> Value? {
        let candidate = freeSlots.last ?? slots.count
        var index = candidate
        // One lookup: a new key gets `candidate` inserted; an existing one gives its slot (never `candidate`,
        // which is free).
        Self.read(&slotForKey[key, default: candidate], into: &index)
        if index != candidate {
            let previous = slots[index].value
            totalCost += cost - slots[index].cost
            slots[index].value = object
            slots[index].cost = cost
            moveToNewest(index)
            return previous
        }
        let slot = Slot(key: key, value: object, cost: cost, newer: Self.none, older: newest)
        if index < slots.count {
            freeSlots.removeLast()
            slots[index] = slot
        } else {
            slots.append(slot)
        }
        if newest != Self.none { slots[newest].newer = index }
        newest = index
        if oldest == Self.none { oldest = index }
        totalCost += cost
        return nil
    }

    @inlinable
    static func read(_ stored: inout Int, into value: inout Int) { value = stored }

    @inlinable
    mutating func moveToNewest(_ index: Int) {
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
    mutating func detach(_ index: Int) {
        let newer = slots[index].newer
        let older = slots[index].older
        if newer != Self.none { slots[newer].older = older } else { newest = older }
        if older != Self.none { slots[older].newer = newer } else { oldest = newer }
    }

    /// Removes the slot's entry and frees the slot; returns its object.
    @inlinable
    mutating func unlink(_ index: Int) -> Value? {
        detach(index)
        let value = slots[index].value
        if let key = slots[index].key { slotForKey[key] = nil }
        totalCost -= slots[index].cost
        slots[index] = Slot(key: nil, value: nil, cost: 0, newer: Self.none, older: Self.none)
        freeSlots.append(index)
        return value
    }

    /// `totalCostLimit`, or the fallback when that is 0.
    @inlinable var effectiveCostLimit: Int { totalCostLimit > 0 ? totalCostLimit : fallbackTotalCostLimit }

    /// Evicts from the old end until the count and cost limits hold.
    @inlinable
    mutating func trim(into evicted: inout [Value]) {
        while oldest != Self.none,
              (countLimit > 0 && slotForKey.count > countLimit) || (effectiveCostLimit > 0 && totalCost > effectiveCostLimit) {
            if let value = unlink(oldest) { evicted.append(value) }
        }
    }

    /// Drops side-table entries whose objects are gone, when the table has grown well past the strong store.
    @inlinable
    mutating func pruneDeadWeakEntriesIfLarge() {
        guard weakEntries.count > max(256, 2 * slotForKey.count) else { return }
        weakEntries = weakEntries.filter { $0.value.value != nil }
    }
}
