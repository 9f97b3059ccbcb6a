import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// MUS-11: `QueryDiskSync` reads past a write still queued. 4.4.8's synchronous disk query reads the file on the
/// caller's thread (`SDImageCache.m:561-565`) while stores go through the io queue (`SDImageCache.m:301-302`), so an
/// image stored a moment ago is reported missing. The patch makes the synchronous query wait on the io queue,
/// as 5.0.0.
final class MUS11_QueryDiskSyncTests: XCTestCase {
    private var fixture: MUSCacheFixture!

    override func setUpWithError() throws {
        fixture = try MUSCacheFixture("mus11")
        fixture.cache.config.shouldCacheImagesInMemory = false  // the store must not answer from memory
    }
    override func tearDown() {
        fixture.tearDown()
        fixture = nil
    }

    private typealias Answer = (image: UIImage?, data: Data?, cacheType: SDImageCacheType)

    /// A synchronous query; its answer comes before it returns.
    private func querySync(_ key: String) -> Answer? {
        let answer = Locked<Answer?>(nil)
        _ = fixture.cache.queryCacheOperation(forKey: key, options: .queryDiskSync) { image, data, cacheType in
            answer.value = (image, data, cacheType)
        }
        return answer.value
    }

    /// Faithful side: with the write queued behind a gate, the synchronous query misses.
    func test_MUS11_syncQueryMissesAQueuedWrite() throws {
        try MuseumSide.requireUnpatched("MUS-11")
        let gate = DispatchSemaphore(value: 0)
        // Bounded: a wrong side must fail, not hang.
        fixture.cache.ioQueue.async { _ = gate.wait(timeout: .now() + 10) }
        fixture.cache.store(fixture.image, imageData: fixture.data, forKey: "k", toDisk: true, completion: nil)
        let missed = try XCTUnwrap(querySync("k"), "answered before returning")
        XCTAssertNil(missed.image, "the image stored a moment ago is missing (4.4.8's bug)")
        XCTAssertEqual(missed.cacheType, SDImageCacheType.none)
        gate.signal()
        fixture.cache.ioQueue.sync {}
        XCTAssertEqual(querySync("k")?.cacheType, .disk, "once the write ran, the same query hits")
    }

    /// Fixed side (5.0.0): the synchronous query waits behind the write on the io queue and finds the image.
    func test_MUS11_fixed_syncQueryWaitsForTheQueuedWrite() throws {
        try MuseumSide.requirePatched("MUS-11")
        let gate = DispatchSemaphore(value: 0)
        // Bounded: a wrong side must fail, not hang.
        fixture.cache.ioQueue.async { _ = gate.wait(timeout: .now() + 10) }
        fixture.cache.store(fixture.image, imageData: fixture.data, forKey: "k", toDisk: true, completion: nil)
        DispatchQueue.global().async { gate.signal() }
        let answer = try XCTUnwrap(querySync("k"))
        XCTAssertNotNil(answer.image)
        XCTAssertEqual(answer.data, fixture.data)
        XCTAssertEqual(answer.cacheType, .disk)
    }
}
