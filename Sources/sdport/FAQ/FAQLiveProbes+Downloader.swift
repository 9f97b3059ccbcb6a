import Foundation
import SDPort
import SDPortTestServer

/// The FAQ answers proven by the downloader: defaults read from a fresh instance, and real requests to a
/// loopback server.
extension FAQLiveProbes {
    /// FAQ-02: the defaults of a fresh downloader.
    static func downloaderDefaults() -> String {
        let downloader = SDWebImageDownloader(sessionConfiguration: nil)
        return "SDWebImageDownloader().maxConcurrentDownloads = \(downloader.maxConcurrentDownloads), "
            + "downloadTimeout = \(downloader.downloadTimeout) s"
    }

    /// FAQ-09: the same URL, cacheable for an hour, downloaded twice without and then twice with `useNSURLCache`.
    static func protocolCache() async throws -> String {
        try await FAQLoopback.with { loopback in
            loopback.server.route(
                "/default.png", .data(SampleImage.png, contentType: "image/png").cacheControl("max-age=3600"))
            loopback.server.route(
                "/cached.png", .data(SampleImage.png, contentType: "image/png").cacheControl("max-age=3600"))
            for _ in 0..<2 { await loopback.download(loopback.server.url("/default.png")) }
            for _ in 0..<2 { await loopback.download(loopback.server.url("/cached.png"), options: .useNSURLCache) }
            return "a response with Cache-Control: max-age=3600, downloaded twice: default options → "
                + "\(loopback.server.hits("/default.png")) requests; useNSURLCache → "
                + "\(loopback.server.hits("/cached.png")) request(s)"
        }
    }

    /// FAQ-12: the header the downloader holds, and the one the server received.
    static func acceptHeader() async throws -> String {
        try await FAQLoopback.with { loopback in
            loopback.server.route("/accept.png", .data(SampleImage.png, contentType: "image/png"))
            await loopback.download(loopback.server.url("/accept.png"))
            let received = loopback.server.requests("/accept.png").first?.header("Accept") ?? "(none)"
            return
                "value(forHTTPHeaderField: \"Accept\") = \(loopback.downloader.value(forHTTPHeaderField: "Accept") ?? "nil"); "
                + "the loopback server received Accept: \(received)"
        }
    }

    /// FAQ-16: three downloads queued on a suspended downloader with one slot; the order they complete in.
    static func executionOrder() async throws -> String {
        let fifo = try await completionOrder(.fifo)
        let lifo = try await completionOrder(.lifo)
        return "default executionOrder = \(SDWebImageDownloader(sessionConfiguration: nil).executionOrder); "
            + "a, b, c queued with 1 slot: FIFO completes \(fifo), LIFO completes \(lifo)"
    }

    private static func completionOrder(_ order: SDWebImageDownloaderExecutionOrder) async throws -> String {
        try await FAQLoopback.with { loopback in
            let downloader = loopback.downloader
            downloader.maxConcurrentDownloads = 1
            downloader.executionOrder = order
            downloader.setSuspended(true)
            let finished = LockedValue<[String]>([])
            let names = ["a", "b", "c"]
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                for name in names {
                    loopback.server.route("/\(name).png", .data(SampleImage.png, contentType: "image/png"))
                    downloader.downloadImage(with: loopback.server.url("/\(name).png"), options: [], progress: nil) {
                        _, _, _, _ in
                        let count = finished.withValue { list -> Int in
                            list.append(name)
                            return list.count
                        }
                        if count == names.count { continuation.resume() }
                    }
                }
                downloader.setSuspended(false)
            }
            return finished.value.joined(separator: ", ")
        }
    }

    /// FAQ-17 (downloader half): two requests for a URL whose server never answers share one operation.
    static func coalescing() async throws -> String {
        try await FAQLoopback.with { loopback in
            loopback.server.route("/slow.png", .stall)
            let url = loopback.server.url("/slow.png")
            let first = loopback.downloader.downloadImage(with: url, options: [], progress: nil, completed: nil)
            let second = loopback.downloader.downloadImage(with: url, options: [], progress: nil, completed: nil)
            let shared = first?.downloadOperation != nil && first?.downloadOperation === second?.downloadOperation
            let count = loopback.downloader.currentDownloadCount
            loopback.downloader.cancel(first)
            loopback.downloader.cancel(second)
            return "two downloadImage calls for one URL: currentDownloadCount = \(count), same operation = \(shared)"
        }
    }
}
