/// The hash index of `AutoPurgeCacheStorage`: which slot holds a key. An open-addressing table with linear probing
/// that stores, per used position, the slot's number and the key's full hash, and never the key itself: the key
/// lives once, in its slot, so a set retains it once (a `Dictionary` from key to slot kept a second copy, one more
/// retain and release per set) and growing the table moves two integers per entry and hashes nothing again.
/// Removal shifts the following run of entries back (no tombstones), so probes stay short however many entries come
/// and go.
///
/// Not a type of the original: NSCache keeps its table inside Foundation (`SDImageCache.m:21`, 4.4.8,
/// `SDMemoryCache`). Not thread-safe by itself; `AutoPurgeCache` guards it with its lock.
/// At tag 4.4.8: `SDWebImage/SDImageCache.m:21` (`SDMemoryCache`).
@usableFromInline
struct AutoPurgeCacheIndex {
    @usableFromInline
    struct Entry {
        /// The slot's number, or `empty`.
        @usableFromInline var slot: Int
        @usableFromInline var hash: Int

        @inlinable init(slot: Int, hash: Int) {
            self.slot = slot
            self.hash = hash
        }
    }

    @inlinable static var empty: Int { -1 }
    /// Room for 8 entries before the first growth.
    @inlinable static var initialCapacity: Int { 16 }

    /// A power of two in length once anything was inserted; kept at most half full.
    @usableFromInline var entries: [Entry] = []
    @usableFromInline var count = 0

    @inlinable init() {}

    /// Where `hash`'s probe ends: the slot for which `matches` answers true, or, when none does, the empty position
    /// where that key would go (`nil` slot).
    @inlinable
    func find(hash: Int, matches: (Int) -> Bool) -> (position: Int, slot: Int?) {
        guard !entries.isEmpty else { return (0, nil) }
        return entries.withUnsafeBufferPointer { table in
            let mask = table.count - 1
            var position = hash & mask
            while true {
                let entry = table[position]
                if entry.slot == Self.empty { return (position, nil) }
                if entry.hash == hash && matches(entry.slot) { return (position, entry.slot) }
                position = (position + 1) & mask
            }
        }
    }

    /// Records `slot` for a key with `hash` that `find` did not find, at the position `find` returned.
    @inlinable
    mutating func insert(slot: Int, hash: Int, at position: Int) {
        if (count + 1) * 2 > entries.count {
            grow()
            var free = hash & (entries.count - 1)
            while entries[free].slot != Self.empty { free = (free + 1) & (entries.count - 1) }
            entries[free] = Entry(slot: slot, hash: hash)
        } else {
            entries[position] = Entry(slot: slot, hash: hash)
        }
        count += 1
    }

    /// Forgets `slot`, whose key has `hash`; the entries after it in its run move back so no probe stops early.
    @inlinable
    mutating func remove(slot: Int, hash: Int) {
        guard !entries.isEmpty else { return }
        let removed = entries.withUnsafeMutableBufferPointer { table -> Bool in
            let mask = table.count - 1
            var hole = hash & mask
            while table[hole].slot != slot {
                if table[hole].slot == Self.empty { return false }  // not recorded
                hole = (hole + 1) & mask
            }
            var next = hole
            while true {
                next = (next + 1) & mask
                let entry = table[next]
                if entry.slot == Self.empty { break }
                // The entry may fill the hole when its home position is not after the hole, going round the
                // table from the hole to where it sits now.
                let home = entry.hash & mask
                let homeIsBetween = hole <= next ? (home > hole && home <= next) : (home > hole || home <= next)
                if !homeIsBetween {
                    table[hole] = entry
                    hole = next
                }
            }
            table[hole] = Entry(slot: Self.empty, hash: 0)
            return true
        }
        if removed { count -= 1 }
    }

    /// Forgets everything, keeping no storage.
    @inlinable
    mutating func removeAll() {
        entries = []
        count = 0
    }

    /// Doubles the table and places every entry again by its stored hash.
    @usableFromInline
    mutating func grow() {
        let capacity = Swift.max(Self.initialCapacity, entries.count * 2)
        var table = [Entry](repeating: Entry(slot: Self.empty, hash: 0), count: capacity)
        let mask = capacity - 1
        table.withUnsafeMutableBufferPointer { table in
            for entry in entries where entry.slot != Self.empty {
                var position = entry.hash & mask
                while table[position].slot != Self.empty { position = (position + 1) & mask }
                table[position] = entry
            }
        }
        entries = table
    }
}
