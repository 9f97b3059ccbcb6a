import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// A deliberate difference from 4.4.8 (chapter 08): a progressive download keeps at most one partial decode in
/// flight, as 5.x does (`SDWebImage/Core/SDWebImageDownloaderOperation.m:558` at tag 5.21.5). 4.4.8 queues one
/// decode per chunk, each with its own copy of the data and its own full-size bitmap.
final class ProgressiveDecodeCoalescingTests: XCTestCase {
    /// A progressive coder for data starting with "SDPB" whose first partial decode waits until the whole body
    /// has arrived, so every later chunk finds a decode in flight.
    final class BlockingCoder: SDWebImageProgressiveCoder, @unchecked Sendable {
        static let partialCalls = Locked(0)
        static let finishedFlags = Locked<[Bool]>([])
        static let release = DispatchSemaphore(value: 0)
        private static let magic = Data("SDPB".utf8)

        required init() {}
        func canDecode(from data: Data?) -> Bool { data?.prefix(4) == Self.magic }
        func canIncrementallyDecode(from data: Data?) -> Bool { canDecode(from: data) }
        func decodeImage(from data: Data) throws -> UIImage {
            UIImage(pixelWidth: 1, pixelHeight: 1, pixels: [0, 0, 0, 255], hasAlpha: false)
        }
        func incrementallyDecodedImage(with data: Data?, finished: Bool) -> UIImage? {
            let call = Self.partialCalls.value + 1
            Self.partialCalls.value = call
            Self.finishedFlags.update { $0.append(finished) }
            if call == 1 { _ = Self.release.wait(timeout: .now() + 30) }
            return UIImage(pixelWidth: 1, pixelHeight: 1, pixels: [0, 0, 0, 255], hasAlpha: false)
        }
        func decompressedImage(with image: UIImage?, data: inout Data?, options: SDWebImageCoderOptions?) -> UIImage? {
            image
        }
        func canEncode(to format: SDImageFormat) -> Bool { false }
        func encodedData(with image: UIImage?, format: SDImageFormat) -> Data? { nil }
    }

    func test_PROGRESSIVE_chunksArrivingDuringAPartialDecodeAreNotQueued() throws {
        let body = Data("SDPB".utf8) + Data(repeating: 7, count: 8_000)
        let server = SDPortTestServer()
        // 20 chunks; the first partial decode blocks until the last has arrived.
        server.route(
            "/blocking.bin",
            SDPortTestRoute.data(body, contentType: "image/x-sdpb").trickle(chunkSize: 401, interval: 0.005))
        try server.start()
        defer { server.stop() }
        // The operation takes the first coder of the list that can decode progressively (4.4.8 walks `coders` in
        // order), and the ImageIO coder, first, claims any bytes: this test's coder stands alone for the download.
        let saved = SDWebImageCodersManager.shared.coders
        SDWebImageCodersManager.shared.coders = [BlockingCoder()]
        defer { SDWebImageCodersManager.shared.coders = saved }
        let downloader = SDWebImageDownloader(sessionConfiguration: nil)
        defer { downloader.invalidateSessionAndCancel(true) }

        let done = expectation(description: "download")
        let chunks = Locked(0)
        let recorder = DownloadRecorder { done.fulfill() }
        downloader.downloadImage(
            with: server.url("/blocking.bin"), options: .progressiveDownload,
            progress: { received, expected, _ in
                guard received > 0 else { return }
                chunks.update { $0 += 1 }
                if received >= expected { BlockingCoder.release.signal() }
            }, completed: recorder.completed)
        wait(for: [done], timeout: 30)

        XCTAssertGreaterThan(chunks.value, 5, "the body arrived in pieces")
        XCTAssertEqual(
            BlockingCoder.partialCalls.value, 2,
            "one partial decode for the \(chunks.value - 1) chunks before the last (4.4.8 would queue one per chunk), "
                + "and one for the last chunk (OP-10)")
        XCTAssertEqual(BlockingCoder.finishedFlags.value, [false, true])
        XCTAssertEqual(
            recorder.completions.map(\.finished), [false, false, true], "two partial images, then the final one")
        XCTAssertEqual(recorder.final?.image?.pixelWidth, 1, "the final image is decoded as always")
        XCTAssertNil(recorder.final?.error)
    }
}
