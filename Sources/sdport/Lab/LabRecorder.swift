import Foundation
import SDPort

/// Collects a lab run's completion calls, from whatever queue they arrive on, and lets the run wait until every
/// caller has had its finished call. State is guarded by `lock`. Port addition.
final class LabRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var calls: [LabCallback] = []
    private var finishedCallers = Set<Int>()
    private var waiter: CheckedContinuation<Void, Never>?
    private let callers: Int

    init(callers: Int) { self.callers = callers }

    var callbacks: [LabCallback] { lock.withLock { calls } }

    /// The completion block of caller `caller` for either flow.
    func completion(caller: Int) -> SDInternalCompletionBlock {
        { [self] image, _, error, cacheType, finished, _ in
            let nsError = error.map { $0 as NSError }
            let call = LabCallback(
                caller: caller, image: image.map { "\($0.pixelWidth)x\($0.pixelHeight)" },
                topLeft: image.map(Self.topLeftColour), errorDomain: nsError?.domain,
                errorCode: nsError?.code, cacheType: Self.name(of: cacheType), finished: finished)
            let resume: CheckedContinuation<Void, Never>? = lock.withLock {
                calls.append(call)
                if finished { finishedCallers.insert(caller) }
                guard finishedCallers.count == callers, let waiting = waiter else { return nil }
                waiter = nil
                return waiting
            }
            resume?.resume()
        }
    }

    /// Returns once every caller had a finished call, or after `timeout` seconds (a guard against a flow that
    /// never calls back; the outcome then shows the calls that came).
    func waitUntilEveryCallerFinished(timeout: TimeInterval) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done: Bool = lock.withLock {
                if finishedCallers.count == callers { return true }
                waiter = continuation
                return false
            }
            if done {
                continuation.resume()
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [self] in
                let late: CheckedContinuation<Void, Never>? = lock.withLock {
                    defer { waiter = nil }
                    return waiter
                }
                late?.resume()
            }
        }
    }

    /// 4.4.8's name of the origin, without the description's explanation.
    private static func name(of cacheType: SDImageCacheType) -> String {
        switch cacheType {
        case .none: return "none"
        case .disk: return "disk"
        case .memory: return "memory"
        @unknown default: return "\(cacheType.rawValue)"
        }
    }

    /// A name for the top-left pixel's colour (the sample image is red and blue).
    private static func topLeftColour(_ image: UIImage) -> String {
        guard image.pixelWidth > 0, image.pixelHeight > 0 else { return "none" }
        let pixel = image.pixel(x: 0, y: 0)
        switch (pixel.r > 127, pixel.g > 127, pixel.b > 127) {
        case (true, false, false): return "red"
        case (false, false, true): return "blue"
        case (false, true, false): return "green"
        case (true, true, true): return "white"
        case (false, false, false): return "black"
        default: return String(format: "#%02X%02X%02X", pixel.r, pixel.g, pixel.b)
        }
    }
}
