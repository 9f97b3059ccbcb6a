import Foundation

/// Lets as many downloaded images decode at once as the machine has cores; the rest wait their turn, first come
/// first served.
///
/// Port addition (issue 13). 4.4.8 gives each `SDWebImageDownloaderOperation` its own serial coder queue and keeps
/// the operation in its downloader slot until its image is decoded (`-URLSession:task:didCompleteWithError:`
/// calls `-done` from the coder queue). The port keeps all of that. Without a gate, six coder queues on two cores
/// are time-sliced: the six decodes progress together, finish together, and the six slots open together, so the
/// next transfers start while the cores sit idle. Through the gate the decodes finish one by one, each slot opens
/// as soon as its image is ready, and the next transfer overlaps the decodes still running. The order of
/// callbacks, the slot rule and the number of downloads do not change; only when each decode gets a core does.
/// The gate holds only the decoding itself; the completion (callbacks, finishing the operation) runs after it.
/// `sdport-bench downloader` shows the effect ("pipeline" goal).
enum SDWebImageDecodeGate {
    /// One permit per active core; waited on from the operations' coder queues only, never from the delegate or
    /// completion queues, so a wait cannot block a transfer or a callback.
    private static let permits = DispatchSemaphore(value: max(1, ProcessInfo.processInfo.activeProcessorCount))

    /// Runs `work` once a core is free.
    static func run<T>(_ work: () throws -> T) rethrows -> T {
        permits.wait()
        defer { permits.signal() }
        return try work()
    }
}
