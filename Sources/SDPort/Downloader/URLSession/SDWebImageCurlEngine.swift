import CCurl
import Foundation

/// The libcurl multi handle and the one thread that drives it.
///
/// Linux has no NSURLSession worth building on (FoundationNetworking's is itself a thin libcurl wrapper without
/// the delegate hooks the original uses), so the port runs libcurl directly: every easy handle of a session
/// lives in this engine's multi handle, and a dedicated thread loops on `curl_multi_perform` /
/// `curl_multi_poll`. Other threads never touch a handle: they queue a command and wake the thread with
/// `curl_multi_wakeup` (the one multi call that is thread-safe). The engine also measures each transfer's
/// idle time, because the original's request timeout is an idle timeout (see `SDWebImageCurlSession`).
final class SDWebImageCurlEngine: @unchecked Sendable {
    enum Command {
        /// Add a transfer to the multi handle.
        case start(SDWebImageCurlTransfer)
        /// End a transfer with an error (cancellation), whatever its state.
        case cancel(SDWebImageCurlTransfer, NSError)
        /// The task accepted the response: release the body.
        case proceed(SDWebImageCurlTransfer)
        /// Drop a transfer without reporting anything (the task replaced it).
        case discard(SDWebImageCurlTransfer)
        /// Cancel everything and end the thread.
        case stop(NSError)
    }

    private static let globalInitResult: CURLcode = curl_global_init(Int(CURL_GLOBAL_ALL))

    /// The multi handle. Used on the engine thread only, except `curl_multi_wakeup`, which is called with
    /// `lock` held and only while `isAccepting`, so never after the thread has cleaned the handle up.
    private let multi: UnsafeMutableRawPointer
    /// Guards `pending` and `isAccepting`.
    private let lock = NSLock()
    private var pending: [Command] = []
    private var isAccepting = true
    /// Transfers in the multi handle or waiting for their task. Engine thread only.
    private var active: [ObjectIdentifier: SDWebImageCurlTransfer] = [:]

    init?(name: String) {
        guard Self.globalInitResult == CURLE_OK, let multi = curl_multi_init() else { return nil }
        self.multi = multi
        // Reuse connections and multiplex HTTP/2 streams: the port's reading of `HTTPShouldUsePipelining`
        // (libcurl dropped HTTP/1.1 pipelining in 7.62, as browsers and NSURLSession did before it).
        let multiplex = 2  // CURLPIPE_MULTIPLEX
        _ = sdcurl_multi_setopt_long(multi, CURLMOPT_PIPELINING, multiplex)
        let thread = Thread { [self] in self.run() }
        thread.name = name
        thread.start()
    }

    /// Queues a command for the engine thread. Returns false once the engine has stopped.
    @discardableResult
    func submit(_ command: Command) -> Bool {
        lock.withLock {
            guard isAccepting else { return false }
            pending.append(command)
            curl_multi_wakeup(multi)
            return true
        }
    }

    // MARK: Engine thread

    private func run() {
        var stopError: NSError?
        while stopError == nil {
            // From the wake-up to the next wait the thread works (commands, libcurl, finished transfers): a
            // timeline's transfer lane. `workStart` is nil, and nothing is timed, unless an observer asked for work.
            let workStart = SDWebImageTrace.workStart()
            let commands = lock.withLock { () -> [Command] in
                let taken = pending
                pending.removeAll(keepingCapacity: true)
                return taken
            }
            for command in commands {
                if case .stop(let error) = command {
                    stopError = error
                    break
                }
                apply(command)
            }
            if stopError != nil { break }

            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            collectFinishedTransfers()
            let waitMilliseconds = expireIdleTransfers()
            SDWebImageTrace.work("libcurl", serving: .downloadResponse, since: workStart)
            _ = curl_multi_poll(multi, nil, 0, waitMilliseconds, nil)
        }
        shutDown(with: stopError!)
    }

    private func apply(_ command: Command) {
        switch command {
        case .start(let transfer):
            guard !transfer.isFinished else { return }
            if let error = transfer.attach(to: multi, now: DispatchTime.now().uptimeNanoseconds) {
                transfer.finish(error)
            } else {
                active[ObjectIdentifier(transfer)] = transfer
            }
        case .cancel(let transfer, let error):
            transfer.detach(from: multi)
            active[ObjectIdentifier(transfer)] = nil
            transfer.finish(error)
        case .proceed(let transfer):
            transfer.proceed()
            if transfer.isFinished { active[ObjectIdentifier(transfer)] = nil }
        case .discard(let transfer):
            transfer.detach(from: multi)
            active[ObjectIdentifier(transfer)] = nil
            transfer.discard()
        case .stop:
            break
        }
    }

    /// Reads libcurl's "done" messages and ends those transfers.
    private func collectFinishedTransfers() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = sdcurl_msg_result(message)  // read before the handle leaves the multi handle
            var pointer: UnsafeMutableRawPointer?
            guard sdcurl_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &pointer) == CURLE_OK, let pointer else {
                continue
            }
            let transfer = Unmanaged<SDWebImageCurlTransfer>.fromOpaque(pointer).takeUnretainedValue()
            transfer.detach(from: multi)
            transfer.ended(with: code)
            if transfer.isFinished { active[ObjectIdentifier(transfer)] = nil }
        }
    }

    /// Fails transfers that received nothing for longer than their timeout; returns how long to poll.
    private func expireIdleTransfers() -> Int32 {
        let now = DispatchTime.now().uptimeNanoseconds
        var nextDeadline = now + 1_000_000_000
        for transfer in Array(active.values) where transfer.isInMulti {
            let deadline = transfer.lastActivity &+ transfer.idleTimeoutNanoseconds
            if deadline <= now {
                transfer.detach(from: multi)
                transfer.end(
                    with: SDWebImageDownloaderError.timedOut(
                        after: transfer.configuration.idleTimeout,
                        url: transfer.configuration.url))
                if transfer.isFinished { active[ObjectIdentifier(transfer)] = nil }
            } else {
                nextDeadline = min(nextDeadline, deadline)
            }
        }
        return Int32(max(1, (nextDeadline - now + 999_999) / 1_000_000))
    }

    /// Ends every transfer with `error`, refuses further commands and frees the multi handle.
    private func shutDown(with error: NSError) {
        let leftovers = lock.withLock { () -> [Command] in
            isAccepting = false
            let taken = pending
            pending.removeAll()
            return taken
        }
        for case .start(let transfer) in leftovers { active[ObjectIdentifier(transfer)] = transfer }
        for transfer in active.values {
            transfer.detach(from: multi)
            transfer.finish(error)
        }
        active.removeAll()
        curl_multi_cleanup(multi)
    }
}
