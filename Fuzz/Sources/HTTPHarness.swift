import Foundation
import SDPort

/// The HTTP response handling of the libcurl task, end to end: the input is the raw response (status line,
/// headers, body) a loopback server sends; `SDWebImageDownloader` downloads it through libcurl, the task
/// (status, redirects, 401 challenges, 304s, header folding) and the operation (status check, decoding).
/// Every download must complete exactly once; nothing may crash.
final class HTTPHarness: @unchecked Sendable {
    static let shared = HTTPHarness()

    let responder = LoopbackResponder()
    let downloader: SDWebImageDownloader
    /// Completions arrive here (no main run loop runs in the fuzzer).
    private let completions = DispatchQueue(label: "sdport-fuzz-http-completions")

    private init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        downloader = SDWebImageDownloader(sessionConfiguration: configuration)
        downloader.completionQueue = completions
        downloader.downloadTimeout = 5
        downloader.setOperationClass(FuzzDownloadOperation.self)
        downloader.urlCredential = URLCredential(user: "fuzz", password: "fuzz", persistence: .forSession)
    }

    private var url: URL { URL(string: "http://127.0.0.1:\(responder.port)/image")! }

    func run(_ data: Data) {
        responder.respond(with: data)
        let finals = FinalCount()
        let done = DispatchSemaphore(value: 0)
        // useNSURLCache with no cache: the task's protocol-cache path runs without storing anything.
        downloader.downloadImage(with: url, options: [.useNSURLCache, .progressiveDownload], progress: nil) {
            _, _, _, finished in
            guard finished else { return }
            if finals.increment() == 1 { done.signal() }
        }
        guard done.wait(timeout: .now() + 30) == .success else { preconditionFailure("the download never completed") }
        // A second final completion would arrive on the serial completion queue right behind the first.
        completions.sync {}
        precondition(finals.value == 1, "completed \(finals.value) times")
    }

    /// How many final completions one download reported. Guarded by `lock`.
    private final class FinalCount: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func increment() -> Int {
            lock.withLock {
                count += 1
                return count
            }
        }
        var value: Int { lock.withLock { count } }
    }
}
