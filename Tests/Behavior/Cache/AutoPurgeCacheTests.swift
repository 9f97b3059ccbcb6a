import Foundation
import SDPort
import SDPortCacheWorkload
import XCTest

/// `AutoPurgeCache`: NSCache's contract on a least-recently-used store, emptied by the memory warning.
final class AutoPurgeCacheTests: XCTestCase {
    private final class Box: Sendable {
        let id: Int
        init(_ id: Int) { self.id = id }
    }

    /// Parity: CACHE-14 — set, get, remove, removeAll and name behave as NSCache's.
    func test_CACHE14_basicContract() {
        let cache = AutoPurgeCache<String, Box>(purgesOnMemoryWarning: false)
        XCTAssertEqual(cache.name, "")
        cache.name = "com.hackemist.SDWebImageCache.test"
        XCTAssertEqual(cache.name, "com.hackemist.SDWebImageCache.test")
        XCTAssertEqual(cache.countLimit, 0, "0 means no limit, as NSCache")
        XCTAssertEqual(cache.totalCostLimit, 0)

        cache.setObject(Box(1), forKey: "a")
        cache.setObject(Box(2), forKey: "b", cost: 7)
        XCTAssertEqual(cache.object(forKey: "a")?.id, 1)
        XCTAssertEqual(cache.object(forKey: "b")?.id, 2)
        XCTAssertNil(cache.object(forKey: "c"))
        XCTAssertEqual(cache.totalCost, 7)

        cache.setObject(Box(3), forKey: "b", cost: 4)
        XCTAssertEqual(cache.object(forKey: "b")?.id, 3, "setting a key again replaces its object")
        XCTAssertEqual(cache.totalCost, 4, "and its cost")
        XCTAssertEqual(cache.count, 2)

        cache.removeObject(forKey: "a")
        XCTAssertNil(cache.object(forKey: "a"))
        cache.removeAllObjects()
        XCTAssertNil(cache.object(forKey: "b"))
        XCTAssertEqual(cache.count, 0)
        XCTAssertEqual(cache.totalCost, 0)
    }

    /// Parity: CACHE-14 — over the count limit the least recently *used* entry goes (reads count), unlike
    /// Foundation's NSCache on Linux, which drops the newest entry and ignores reads.
    func test_CACHE14_countLimitEvictsLeastRecentlyUsed() {
        let cache = AutoPurgeCache<Int, Box>(purgesOnMemoryWarning: false)
        cache.countLimit = 3
        for i in 1...3 { cache.setObject(Box(i), forKey: i) }
        XCTAssertNotNil(cache.object(forKey: 1), "reading 1 makes it the most recently used")
        cache.setObject(Box(4), forKey: 4)
        XCTAssertNil(cache.object(forKey: 2), "2 was the least recently used")
        XCTAssertEqual(cache.keysByRecency, [4, 1, 3])
        cache.setObject(Box(5), forKey: 5)
        XCTAssertEqual(Set(cache.keysByRecency), [5, 4, 1])
        XCTAssertEqual(cache.object(forKey: 5)?.id, 5, "the newest entry is kept")

        cache.countLimit = 1
        XCTAssertEqual(cache.keysByRecency, [5], "lowering the limit trims at once")
    }

    /// Parity: CACHE-14 — the total cost limit evicts the oldest until the sum fits; an object costing more than
    /// the whole limit does not stay.
    func test_CACHE14_totalCostLimit() {
        let cache = AutoPurgeCache<String, Box>(purgesOnMemoryWarning: false)
        cache.totalCostLimit = 100
        cache.setObject(Box(1), forKey: "a", cost: 40)
        cache.setObject(Box(2), forKey: "b", cost: 40)
        cache.setObject(Box(3), forKey: "c", cost: 40)
        XCTAssertNil(cache.object(forKey: "a"))
        XCTAssertEqual(cache.totalCost, 80)
        cache.setObject(Box(4), forKey: "huge", cost: 500)
        XCTAssertNil(cache.object(forKey: "huge"))
        XCTAssertEqual(cache.totalCost, 0, "making room for an object larger than the limit empties the cache")
    }

    /// Parity: CACHE-14 — posting the memory warning empties the cache (synchronously, on the posting thread).
    func test_CACHE14_memoryWarningEmptiesTheCache() {
        let cache = AutoPurgeCache<String, Box>()
        cache.setObject(Box(1), forKey: "a", cost: 3)
        cache.setObject(Box(2), forKey: "b")
        NotificationCenter.default.post(name: UIApplication.didReceiveMemoryWarningNotification, object: nil)
        XCTAssertEqual(cache.count, 0)
        XCTAssertEqual(cache.totalCost, 0)
        XCTAssertNil(cache.object(forKey: "a"))

        let deaf = AutoPurgeCache<String, Box>(purgesOnMemoryWarning: false)
        deaf.setObject(Box(1), forKey: "a")
        NotificationCenter.default.post(name: UIApplication.didReceiveMemoryWarningNotification, object: nil)
        XCTAssertNotNil(deaf.object(forKey: "a"), "a cache that does not observe the warning keeps its objects")
    }

    /// Parity: CACHE-14 — with the weak side table (4.4's shouldUseWeakMemoryCache), an object purged by the
    /// memory warning but still alive elsewhere is found again and becomes strong again; one nobody keeps is gone.
    func test_CACHE14_weakSideTableSurvivesMemoryWarning() {
        let cache = AutoPurgeCache<String, Box>(weakCacheEnabled: { true })
        let kept = Box(1)
        cache.setObject(kept, forKey: "kept", cost: 5)
        cache.setObject(Box(2), forKey: "dropped", cost: 5)
        NotificationCenter.default.post(name: UIApplication.didReceiveMemoryWarningNotification, object: nil)
        XCTAssertEqual(cache.count, 0, "the warning drops every strong entry")

        XCTAssertTrue(cache.object(forKey: "kept") === kept)
        XCTAssertEqual(cache.count, 1, "a weak hit is put back in the strong store")
        XCTAssertEqual(cache.totalCost, 5, "with its original cost")
        XCTAssertNil(cache.object(forKey: "dropped"), "an object nobody keeps alive is gone")

        cache.removeAllObjects()
        XCTAssertNil(cache.object(forKey: "kept"), "removeAllObjects clears the weak side table too")
        withExtendedLifetime(kept) {}
    }

    /// Parity: CACHE-14 — thread safety: many threads setting, reading and removing at once leave a consistent
    /// cache (count and cost match what is inside, limits hold).
    func test_CACHE14_concurrentUseStaysConsistent() {
        let cache = AutoPurgeCache<Int, Box>(purgesOnMemoryWarning: false)
        cache.countLimit = 50
        cache.totalCostLimit = 400
        let done = expectation(description: "all threads finished")
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: 8) { worker in
                for i in 0..<2_000 {
                    let key = (i * 7 + worker * 13) % 120
                    switch i % 4 {
                    case 0, 1: cache.setObject(Box(key), forKey: key, cost: key % 10)
                    case 2: if let box = cache.object(forKey: key) { XCTAssertEqual(box.id, key) }
                    default: cache.removeObject(forKey: (key + 1) % 120)
                    }
                }
            }
            done.fulfill()
        }
        wait(for: [done], timeout: 60)
        let keys = cache.keysByRecency
        XCTAssertLessThanOrEqual(keys.count, 50)
        XCTAssertEqual(keys.count, cache.count)
        XCTAssertEqual(Set(keys).count, keys.count)
        XCTAssertEqual(cache.totalCost, keys.reduce(0) { $0 + $1 % 10 })
        XCTAssertLessThanOrEqual(cache.totalCost, 400)
        for key in keys { XCTAssertEqual(cache.object(forKey: key)?.id, key) }
    }

    /// A key whose hash only takes `buckets` values, so many keys share a home position in the cache's index and
    /// every removal has to shift a run of entries back.
    private struct CollidingKey: Hashable, Sendable {
        let id: Int
        let buckets: Int
        static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }
        func hash(into hasher: inout Hasher) { hasher.combine(id % buckets) }
    }

    /// Parity: CACHE-14 — 20 000 random sets, gets, removes and limit changes, on keys whose hashes collide in
    /// runs, agree step by step with a plain model of an LRU (an array, most recent first): the same object for
    /// every get, and after every step the same keys in the same order and the same total cost. The cache's own
    /// index (open addressing, removal by shifting back) has to keep every key findable for that. The sequence
    /// comes from a seed (a new one each run, printed on a failure; `SDPORT_TEST_SEED=N` replays it), and the
    /// test stops at the first step where cache and model disagree, naming it.
    func test_CACHE14_agreesWithAPlainLRUModelUnderCollidingKeys() {
        let seed =
            ProcessInfo.processInfo.environment["SDPORT_TEST_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 0..<UInt64.max)
        for buckets in [1, 7, 1_000] {
            if let divergence = lruDivergence(seed: seed, buckets: buckets) {
                XCTFail("\(divergence) (\(buckets) buckets; replay with SDPORT_TEST_SEED=\(seed))")
                return
            }
        }
    }

    /// Runs the random sequence of `seed` on a cache and on the model; returns the first disagreement, or nil.
    private func lruDivergence(seed: UInt64, buckets: Int) -> String? {
        let cache = AutoPurgeCache<CollidingKey, Box>(purgesOnMemoryWarning: false)
        var model: [(key: CollidingKey, id: Int, cost: Int)] = []  // most recent first
        var countLimit = 0
        var costLimit = 0
        var random = SeededGenerator(seed: seed)
        func trimModel() {
            while (countLimit > 0 && model.count > countLimit)
                || (costLimit > 0 && model.reduce(0, { $0 + $1.cost }) > costLimit)
            {
                model.removeLast()
            }
        }
        for step in 0..<20_000 {
            let key = CollidingKey(id: Int.random(in: 0..<150, using: &random), buckets: buckets)
            let action: String
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<45:
                let cost = Int.random(in: 0..<20, using: &random)
                action = "set \(key.id) cost \(cost)"
                cache.setObject(Box(step), forKey: key, cost: cost)
                model.removeAll { $0.key == key }
                model.insert((key, step, cost), at: 0)
                trimModel()
            case 45..<80:
                action = "get \(key.id)"
                let expected = model.firstIndex { $0.key == key }.map { model.remove(at: $0) }
                if let expected { model.insert(expected, at: 0) }
                let found = cache.object(forKey: key)?.id
                if found != expected?.id {
                    return
                        "step \(step), \(action): the cache gave \(found.map(String.init) ?? "nil"), the model \(expected.map { String($0.id) } ?? "nil")"
                }
            case 80..<97:
                action = "remove \(key.id)"
                cache.removeObject(forKey: key)
                model.removeAll { $0.key == key }
            case 97, 98:
                countLimit = [0, 10, 60, 120].randomElement(using: &random)!
                action = "countLimit = \(countLimit)"
                cache.countLimit = countLimit
                trimModel()
            default:
                costLimit = [0, 100, 600].randomElement(using: &random)!
                action = "totalCostLimit = \(costLimit)"
                cache.totalCostLimit = costLimit
                trimModel()
            }
            let order = cache.keysByRecency.map(\.id)
            let expectedOrder = model.map(\.key.id)
            if order != expectedOrder {
                return
                    "step \(step), \(action): keys by recency \(order.prefix(12)) != model \(expectedOrder.prefix(12))"
            }
            let cost = model.reduce(0) { $0 + $1.cost }
            if cache.count != model.count || cache.totalCost != cost {
                return
                    "step \(step), \(action): count \(cache.count), cost \(cache.totalCost) != model \(model.count), \(cost)"
            }
        }
        for entry in model where cache.object(forKey: entry.key)?.id != entry.id {
            return "after the last step: \(entry.key.id) is not \(entry.id)"
        }
        return nil
    }
}
