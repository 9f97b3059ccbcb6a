import Foundation

/// The bytes of one download, appended in place; a snapshot of the bytes so far shares them instead of copying.
///
/// 4.4.8 appends each chunk to an `NSMutableData` sized to the Content-Length and, for a progressive download
/// with a known length, hands every partial decode a `copy` of it (`SDWebImageDownloaderOperation.m`). A Swift
/// `Data` kept by a running partial decode would be copied whole by the next append (copy-on-write), so a
/// progressive download would hold its data twice. Here appends only write past every snapshot's end, into
/// storage that never moves: a snapshot's bytes never change, and the storage lives as long as its last snapshot.
/// When the body outgrows the reservation (a lying or missing Content-Length), new storage is made and the old one
/// stays with the snapshots that use it.
/// At tag 4.4.8: `SDWebImage/SDWebImageDownloaderOperation.m:316` (`-URLSession:dataTask:didReceiveData:`).
///
/// Not thread-safe: the operation calls `append` and `snapshot` under its `stateLock`. A snapshot is an ordinary
/// `Data`, safe to read on any thread while the appends go on.
final class SDWebImageDownloadBuffer {
    /// Memory that is written once, front to back, and freed with the last owner (the buffer or a snapshot).
    private final class Storage: @unchecked Sendable {  // `base` and `capacity` never change after `init`
        let base: UnsafeMutableRawPointer
        let capacity: Int

        init(capacity: Int) {
            self.capacity = max(capacity, 1)
            base = .allocate(byteCount: self.capacity, alignment: 16)
        }

        deinit { base.deallocate() }
    }

    private var storage: Storage
    /// The bytes written so far.
    private(set) var count = 0

    /// Storage for `capacity` bytes; a body that grows past it moves to new storage twice the size.
    init(capacity: Int) {
        storage = Storage(capacity: capacity)
    }

    func append(_ data: Data) {
        let needed = count + data.count
        if needed > storage.capacity {
            let grown = Storage(capacity: max(needed, storage.capacity * 2))
            grown.base.copyMemory(from: storage.base, byteCount: count)
            storage = grown
        }
        data.withUnsafeBytes { bytes in
            guard let source = bytes.baseAddress else { return }
            (storage.base + count).copyMemory(from: source, byteCount: bytes.count)
        }
        count = needed
    }

    /// The bytes so far, without a copy: later appends write after them or into new storage.
    func snapshot() -> Data {
        let storage = self.storage
        return Data(
            bytesNoCopy: storage.base, count: count,
            deallocator: .custom { _, _ in withExtendedLifetime(storage) {} })
    }
}
