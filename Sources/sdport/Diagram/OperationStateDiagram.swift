import Foundation
import SDPort
import SDPortTestServer

/// The download operation's state machine, observed: four real downloads through `SDWebImageDownloader` over the
/// loopback server (a 200, a 404, one cancelled before the queue starts it, one cancelled while it runs). The
/// operation's `isCancelled`, `isExecuting` and `isFinished` are read at each point the run reaches, and every
/// change of state seen becomes an arrow, named by what the run did. The original's flags are set in
/// `SDWebImageDownloaderOperation.m:127-205` (`-start`), `:207-231` (`-cancel`, `-cancelInternal`) and `:233-237`
/// (`-done`, which the task's `didCompleteWithError` callback calls when a download ends); `-reset` (`:239-261`)
/// clears the callbacks and the task but sets no flag.
enum OperationStateDiagram {
    private struct Transition: Equatable {
        let from: String
        let to: String
        let label: String
    }

    /// A state's name from the operation's flags.
    static func state(of operation: Operation) -> String {
        switch (operation.isCancelled, operation.isExecuting, operation.isFinished) {
        case (_, true, _): return "executing"
        case (false, false, false): return "ready"
        case (false, false, true): return "finished"
        case (true, false, false): return "cancelled"
        case (true, false, true): return "cancelledFinished"
        }
    }

    static func make(on loopback: FAQLoopback) async -> DiagramFile {
        let server = loopback.server
        let downloader = loopback.downloader
        server.route("/state-ok.png", .data(SampleImage.png, contentType: "image/png"))
        server.route("/state-404.png", .status(404))
        server.route("/state-slow.png", SDPortTestRoute.data(SampleImage.png, contentType: "image/png").delay(2))
        var transitions: [Transition] = []
        func add(_ from: String, _ to: String, _ label: String) {
            let transition = Transition(from: from, to: to, label: label)
            if !transitions.contains(transition) { transitions.append(transition) }
        }

        // A 200 and a 404: queued while the queue is suspended, then run to the end.
        for (path, ending) in [
            ("/state-ok.png", "200: decoded on the coder queue, completion called"),
            ("/state-404.png", "404: the error goes to the completion"),
        ] {
            downloader.setSuspended(true)
            let run = Run(downloader: downloader, url: server.url(path))
            let queued = state(of: run.operation)
            add("[*]", queued, "downloadImage(with:) adds it to the suspended download queue")
            downloader.setSuspended(false)
            let running = await run.firstProgressState()
            add(queued, running, "start() on the download queue: task resumed")
            await run.completion()
            add(running, state(of: run.operation), ending)
        }

        // Cancelled before the queue starts it: cancelled at once, finished when the queue gets to it.
        downloader.setSuspended(true)
        let early = Run(downloader: downloader, url: server.url("/state-ok.png?early"))
        let queued = state(of: early.operation)
        downloader.cancel(early.token)
        let cancelled = state(of: early.operation)
        add(queued, cancelled, "cancel() by its last caller, before start()")
        downloader.setSuspended(false)
        // Waits through a dependent operation, which the queue runs once the cancelled one has finished.
        let waitingQueue = OperationQueue()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiter = BlockOperation { continuation.resume() }
            waiter.addDependency(early.operation)
            waitingQueue.addOperation(waiter)
        }
        add(cancelled, state(of: early.operation), "start() sees isCancelled: finished without a request")

        // Cancelled while it runs (the server waits 2 s before answering).
        downloader.setSuspended(true)
        let late = Run(downloader: downloader, url: server.url("/state-slow.png"))
        downloader.setSuspended(false)
        let running = await late.firstProgressState()
        downloader.cancel(late.token)
        add(running, state(of: late.operation), "cancel() by its last caller: task cancelled, no completion")

        for transition in transitions where transition.to == "finished" || transition.to == "cancelledFinished" {
            add(transition.to, "[*]", "the queue drops it, the downloader forgets its URL")
        }

        var lines = DiagramFile.header(
            title: "The download operation's states", command: "sdport diagram operation-states")
        lines.append(
            "Observed on four real downloads (a 200, a 404, a cancel before start, a cancel while running): "
                + "each state is the operation's `isCancelled`/`isExecuting`/`isFinished` read at that point.")
        lines.append("")
        lines.append("```mermaid")
        lines.append("stateDiagram-v2")
        lines.append("    ready: ready (queued, not started)")
        lines.append("    executing: executing")
        lines.append("    finished: finished")
        lines.append("    cancelled: cancelled, not finished")
        lines.append("    cancelledFinished: cancelled and finished")
        for transition in transitions {
            lines.append("    \(transition.from) --> \(transition.to): \(DiagramFile.escape(transition.label))")
        }
        lines.append("```")
        return DiagramFile(name: "operation-states", markdown: lines.joined(separator: "\n") + "\n")
    }

    /// One download, made while the download queue is suspended (so `operation` is set before it can start): its token, its operation, and continuations for its first progress and its completion.
    private final class Run: @unchecked Sendable {
        /// Guards `progressState`, `progressWaiter`, `completed` and `completionWaiter`.
        private let lock = NSLock()
        private var progressState: String?
        private var progressWaiter: CheckedContinuation<String, Never>?
        private var completed = false
        private var completionWaiter: CheckedContinuation<Void, Never>?
        private(set) var token: SDWebImageDownloadToken?
        /// Written once, in `init`, while the queue is suspended: before any other thread reads it.
        private(set) var operation: Operation = Operation()

        init(downloader: SDWebImageDownloader, url: URL) {
            token = downloader.downloadImage(
                with: url, options: [],
                progress: { [weak self] _, _, _ in
                    self?.progressed()
                },
                completed: { [weak self] _, _, _, finished in
                    if finished { self?.finished() }
                })
            if let operation = token?.downloadOperation { self.operation = operation }
        }

        /// The state read in the first progress call, which `start()` makes once it is executing.
        func firstProgressState() async -> String {
            await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
                let ready = lock.withLock { () -> String? in
                    if progressState == nil { progressWaiter = continuation }
                    return progressState
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }

        func completion() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let done = lock.withLock { () -> Bool in
                    if !completed { completionWaiter = continuation }
                    return completed
                }
                if done { continuation.resume() }
            }
        }

        private func progressed() {
            let state = OperationStateDiagram.state(of: operation)
            let waiter = lock.withLock { () -> CheckedContinuation<String, Never>? in
                guard progressState == nil else { return nil }
                progressState = state
                defer { progressWaiter = nil }
                return progressWaiter
            }
            waiter?.resume(returning: state)
        }

        private func finished() {
            let waiter = lock.withLock { () -> CheckedContinuation<Void, Never>? in
                completed = true
                defer { completionWaiter = nil }
                return completionWaiter
            }
            waiter?.resume()
        }
    }
}
