import Foundation
import SDPort

/// The FAQ answers that need more than reading a property: each runs the real component on a temporary
/// directory (or a loopback server) and reports what it did.
enum FAQLiveProbes {
    /// Marks the main queue, to ask "does this block run on the main queue". (Under `dispatchMain()`, which an
    /// async `main` ends in on Linux, main-queue blocks run on a worker thread, so `Thread.isMainThread` is false.)
    private static let mainQueueMarker = DispatchSpecificKey<Bool>()

    /// FAQ-08: two files in a fresh cache, one of them dated 8 days back; `deleteOldFiles` removes only that one.
    static func cleanupRule() async throws -> String {
        let directory = try TemporaryCacheDirectory.make(prefix: "sdport-faq08")
        defer { directory.remove() }
        let cache = SDImageCache(namespace: "faq08", diskCacheDirectory: directory.path)
        cache.completionQueue = DispatchQueue(label: "sdport.faq08.completion")
        try cache.writeImageDataToDisk(Data([0x89, 0x50, 0x4E, 0x47]), forKey: "https://example.com/old.png")
        try cache.writeImageDataToDisk(Data([0x89, 0x50, 0x4E, 0x47]), forKey: "https://example.com/new.png")
        let oldPath = cache.defaultCachePath(forKey: "https://example.com/old.png") ?? ""
        let eightDaysAgo = Date().addingTimeInterval(-8 * 86_400)
        try FileManager.default.setAttributes([.modificationDate: eightDaysAgo], ofItemAtPath: oldPath)
        let before = cache.getDiskCount()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            cache.deleteOldFiles { continuation.resume() }
        }
        let oldGone = !FileManager.default.fileExists(atPath: oldPath)
        let newKept = cache.diskImageDataExists(withKey: "https://example.com/new.png")
        return "maxCacheSize = \(cache.config.maxCacheSize) (pass 2 off); deleteOldFiles on \(before) files, one dated "
            + "8 days back: 8-day-old file deleted = \(oldGone), fresh file kept = \(newKept), "
            + "\(cache.getDiskCount()) left"
    }

    /// FAQ-11: the io queue's label, and a disk query cancelled before the io queue reaches it never calls `done`.
    static func ioQueue() async -> String {
        let cache = SDImageCache(namespace: "faq11", diskCacheDirectory: FileManager.default.temporaryDirectory.path)
        let callbacks = DispatchQueue(label: "sdport.faq11.completion")
        cache.completionQueue = callbacks
        let doneCalled = LockedValue(false)
        cache.ioQueue.suspend()
        let operation = cache.queryCacheOperation(forKey: "https://example.com/never-stored.png") { _, _, _ in
            doneCalled.value = true
        }
        operation?.cancel()
        cache.ioQueue.resume()
        // Everything queued on the io queue before this block has run once it runs; then the completion queue.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            cache.ioQueue.async { callbacks.async { continuation.resume() } }
        }
        return "ioQueue.label = \(cache.ioQueue.label); queryCacheOperation returned "
            + "\(operation.map { String(describing: type(of: $0)) } ?? "nil"); cancelled before the io queue ran it: "
            + "done called = \(doneCalled.value)"
    }

    /// FAQ-14: `dispatch_main_async_safe` from a main-queue block runs at once; from a background queue it is
    /// queued and runs later, on the main thread.
    static func mainQueueRule() async -> String {
        let ranInline: Bool = await withCheckedContinuation { continuation in
            DispatchQueue.main.async {
                let ran = LockedValue(false)
                dispatch_main_async_safe { ran.value = true }
                continuation.resume(returning: ran.value)
            }
        }
        DispatchQueue.main.setSpecific(key: mainQueueMarker, value: true)
        let fromBackground: (sameThread: Bool, onMainQueue: Bool) = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let caller = pthread_self()
                dispatch_main_async_safe {
                    let onMainQueue = DispatchQueue.getSpecific(key: mainQueueMarker) == true
                    continuation.resume(returning: (pthread_equal(pthread_self(), caller) != 0, onMainQueue))
                }
            }
        }
        return "from the main queue: ran before the call returned = \(ranInline); from a global queue: ran on the "
            + "caller's thread = \(fromBackground.sameThread), ran on the main queue = \(fromBackground.onMainQueue)"
    }
}
