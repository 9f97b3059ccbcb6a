import Foundation

/// The libdispatch queue behind a `DispatchQueue`, for the label-pointer tests made in C (`CQueueLabel`), which
/// port 4.4.8's `DISPATCH_CURRENT_QUEUE_LABEL` comparison (`SDWebImage/SDWebImageCompat.h:98`, at tag 4.4.8).
extension DispatchQueue {
    /// The `dispatch_queue_t` this queue wraps; nil only if the Dispatch overlay no longer keeps it as `__wrapped`.
    ///
    /// Swift's Dispatch overlay on Linux keeps the queue object in a stored property, `__wrapped`, that it does
    /// not expose. `Mirror` can read it, but builds a reflection of the queue on every call, and
    /// `dispatch_queue_async_safe` asks on every completion (Benchmarks/README.md has the profile). `DispatchQueue`
    /// is a final class, so the property sits at the same offset in every queue: it is checked once, on a probe
    /// queue, against what `Mirror` reads, and from then on read directly.
    var sd_dispatchObject: UnsafeMutableRawPointer? {
        guard let offset = Self.wrappedOffset else { return Self.wrappedByMirror(self) }
        return Unmanaged.passUnretained(self).toOpaque().load(fromByteOffset: offset, as: UnsafeMutableRawPointer?.self)
    }

    private static func wrappedByMirror(_ queue: DispatchQueue) -> UnsafeMutableRawPointer? {
        (Mirror(reflecting: queue).descendant("__wrapped") as? OpaquePointer).map(UnsafeMutableRawPointer.init)
    }

    /// Where `__wrapped` sits: the first word after the object header, when a probe queue holds there what `Mirror`
    /// reads (this toolchain's overlay keeps it there); otherwise nil, and every call reflects.
    /// Reading that word is in bounds whenever `Mirror` found the property, since then the object holds a pointer
    /// after its header. Internal, not private, so that a test can check the probe found it.
    static let wrappedOffset: Int? = {
        let probe = DispatchQueue(label: "sdport.queue-layout-probe")
        let headerSize = 2 * MemoryLayout<UnsafeRawPointer>.stride  // metadata pointer and reference counts
        guard let wrapped = wrappedByMirror(probe) else { return nil }
        let stored = withExtendedLifetime(probe) {
            Unmanaged.passUnretained(probe).toOpaque().load(
                fromByteOffset: headerSize, as: UnsafeMutableRawPointer?.self)
        }
        return stored == wrapped ? headerSize : nil
    }()
}
