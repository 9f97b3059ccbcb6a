import Foundation
import XCTest

@testable import SDPort

/// `SDWebImageDownloadBuffer`, the operation's body: a snapshot shares the bytes (a progressive download's partial
/// decode costs no copy of the data) and never changes when more bytes arrive, the storage growing included.
final class DownloadBufferTests: XCTestCase {
    private func baseAddress(_ data: Data) -> UnsafeRawPointer? {
        data.withUnsafeBytes { $0.baseAddress }
    }

    func test_PERF_snapshotsShareTheBytesInsteadOfCopyingThem() {
        let buffer = SDWebImageDownloadBuffer(capacity: 64 * 1024)
        buffer.append(Data(repeating: 1, count: 20_000))
        let first = buffer.snapshot()
        buffer.append(Data(repeating: 2, count: 20_000))
        let second = buffer.snapshot()
        XCTAssertEqual(first.count, 20_000)
        XCTAssertEqual(second.count, 40_000)
        XCTAssertEqual(baseAddress(first), baseAddress(second), "both snapshots read the one storage")
        XCTAssertEqual(first, Data(repeating: 1, count: 20_000), "a later append leaves an earlier snapshot as it was")
        XCTAssertEqual(second.suffix(20_000), Data(repeating: 2, count: 20_000))
    }

    func test_PERF_growingPastTheReservationLeavesEarlierSnapshotsIntact() {
        let buffer = SDWebImageDownloadBuffer(capacity: 1_000)
        buffer.append(Data(repeating: 3, count: 800))
        let before = buffer.snapshot()
        buffer.append(Data(repeating: 4, count: 800))  // past the reservation: new storage
        let after = buffer.snapshot()
        XCTAssertNotEqual(baseAddress(before), baseAddress(after))
        XCTAssertEqual(before, Data(repeating: 3, count: 800))
        XCTAssertEqual(after, Data(repeating: 3, count: 800) + Data(repeating: 4, count: 800))
        XCTAssertEqual(buffer.count, 1_600)
    }

    func test_PERF_aSnapshotOutlivesItsBuffer() {
        var buffer: SDWebImageDownloadBuffer? = SDWebImageDownloadBuffer(capacity: 100)
        buffer!.append(Data("partial".utf8))
        let snapshot = buffer!.snapshot()
        buffer = nil
        XCTAssertEqual(String(decoding: snapshot, as: UTF8.self), "partial")
    }
}
