import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// MUS-12: a progressive decode storm, one full decode queued per chunk. 4.4.8 queues a partial decode for every
/// chunk that arrives (`SDWebImageDownloaderOperation.m:322-357`), each with its own copy of the data. The port
/// keeps at most one in flight, as 5.6.1; the regress patch queues one per chunk again.
final class MUS12_ProgressiveDecodeStormTests: XCTestCase {
    private var server: SDPortTestServer!
    private var savedCoders: [any SDWebImageCoder] = []

    override func setUpWithError() throws {
        server = SDPortTestServer()
        let body = Data("SDPB".utf8) + Data(repeating: 7, count: 8_000)
        // About 20 chunks; the first partial decode blocks until the last has arrived.
        server.route(
            "/p.bin", SDPortTestRoute.data(body, contentType: "image/x-sdpb").trickle(chunkSize: 401, interval: 0.005))
        try server.start()
        savedCoders = SDWebImageCodersManager.shared.coders
        // The operation takes the first coder that decodes progressively; this one must stand alone.
        SDWebImageCodersManager.shared.coders = [MUSBlockingProgressiveCoder()]
        MUSBlockingProgressiveCoder.partialCalls.value = 0
    }

    override func tearDown() {
        SDWebImageCodersManager.shared.coders = savedCoders
        server.stop()
    }

    /// Downloads progressively; returns (chunks, partial decodes).
    private func download() -> (chunks: Int, decodes: Int) {
        let downloader = SDWebImageDownloader(sessionConfiguration: nil)
        defer { downloader.invalidateSessionAndCancel(true) }
        let done = expectation(description: "download")
        let chunks = Locked(0)
        let recorder = DownloadRecorder { done.fulfill() }
        downloader.downloadImage(
            with: server.url("/p.bin"), options: .progressiveDownload,
            progress: { received, expected, _ in
                guard received > 0 else { return }
                chunks.update { $0 += 1 }
                if received >= expected { MUSBlockingProgressiveCoder.release.signal() }
            }, completed: recorder.completed)
        wait(for: [done], timeout: 30)
        return (chunks.value, MUSBlockingProgressiveCoder.partialCalls.value)
    }

    /// Fixed side (the port): two partial decodes, the blocked first one and the last chunk's, however many
    /// chunks arrived.
    func test_MUS12_partialDecodesAreCoalesced() throws {
        try MuseumSide.requireUnpatched("MUS-12")
        let (chunks, decodes) = download()
        XCTAssertGreaterThan(chunks, 5)
        XCTAssertEqual(decodes, 2)
    }

    /// Faithful side (regressed to 4.4.8): one partial decode per chunk.
    func test_MUS12_regressed_everyChunkQueuesADecode() throws {
        try MuseumSide.requirePatched("MUS-12")
        let (chunks, decodes) = download()
        XCTAssertGreaterThan(chunks, 5)
        XCTAssertEqual(decodes, chunks, "one full decode queued per chunk (4.4.8's storm)")
    }
}
