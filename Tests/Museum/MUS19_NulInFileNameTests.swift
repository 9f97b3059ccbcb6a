import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// MUS-19: a URL with %00 in its extension puts a NUL into the cache file name. 4.4.8 keeps the URL's path
/// extension (`SDImageCache.m:252-253`), which Foundation percent-decodes, and builds paths from the name
/// (`SDImageCache.m:236-239`); on Apple a path with a NUL can come out nil and crash the store and the read
/// (`SDImageCache.m:351-355, 442-444`). The port strips NUL, as 5.19.7; the regress patch leaves it in.
final class MUS19_NulInFileNameTests: XCTestCase {
    private var fixture: MUSCacheFixture!
    private let key = "http://h/a.png%00"

    override func setUpWithError() throws { fixture = try MUSCacheFixture("mus19") }
    override func tearDown() {
        fixture.tearDown()
        fixture = nil
    }

    private var namesOnDisk: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: fixture.cache.diskCachePath)) ?? []
    }

    /// Fixed side (the port): the NUL is stripped, and a store round-trips under the name the cache computes.
    func test_MUS19_nulIsStrippedFromTheFileName() throws {
        try MuseumSide.requireUnpatched("MUS-19")
        let name = SDImageCache.cachedFileName(forKey: key)
        XCTAssertTrue(name.hasSuffix(".png"))
        XCTAssertFalse(name.unicodeScalars.contains("\0"))
        fixture.cache.storeImageData(toDisk: fixture.data, forKey: key)
        XCTAssertEqual(fixture.cache.diskImageData(forKey: key), fixture.data)
        XCTAssertEqual(namesOnDisk, [name])
    }

    /// Faithful side (regressed to 4.4.8): the name ends with a NUL, and the file the C library writes is not the
    /// name the cache computes.
    func test_MUS19_regressed_nulFromPercent00StaysInTheFileName() throws {
        try MuseumSide.requirePatched("MUS-19")
        let name = SDImageCache.cachedFileName(forKey: key)
        XCTAssertTrue(name.hasSuffix(".png\u{0}"), "a NUL in the extension (4.4.8's bug)")
        try? fixture.cache.writeImageDataToDisk(fixture.data, forKey: key)
        XCTAssertFalse(namesOnDisk.contains(name), "no file on disk carries the computed name")
    }
}
