import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// MUS-18: the downloader answers a nil URL with "not finished" and never finishes. 4.4.8 calls the completion
/// once with no image, no error and `finished` NO (`SDWebImageDownloader.m:288-293`), a promise of more calls that
/// never come. The patch answers with an InvalidURL error and `finished`, as 5.0.0.
final class MUS18_NilURLTests: XCTestCase {
    private func downloadNil() -> [(error: Error?, finished: Bool)] {
        let downloader = SDWebImageDownloader(sessionConfiguration: nil)
        defer { downloader.invalidateSessionAndCancel(true) }
        let calls = Recorder<(error: Error?, finished: Bool)>()
        let token = downloader.downloadImage(with: nil, options: [], progress: nil) { image, data, error, finished in
            XCTAssertNil(image)
            XCTAssertNil(data)
            calls.append((error, finished))
        }
        XCTAssertNil(token)
        XCTAssertEqual(calls.count, 1, "called before downloadImage returned")
        drainMainQueue()
        return calls.values
    }

    /// Faithful side: exactly one call, not finished and without an error; a wrapper waiting for `finished`
    /// would wait forever.
    func test_MUS18_nilURLAnswersNotFinishedOnce() throws {
        try MuseumSide.requireUnpatched("MUS-18")
        let calls = downloadNil()
        XCTAssertEqual(calls.count, 1)
        XCTAssertEqual(calls.first?.finished, false, "'more to come', and nothing comes (4.4.8's bug)")
        XCTAssertNil(calls.first?.error)
    }

    /// Fixed side (5.0.0): one call, finished, with `SDWebImageErrorInvalidURL` (1000).
    func test_MUS18_fixed_nilURLFinishesWithInvalidURL() throws {
        try MuseumSide.requirePatched("MUS-18")
        let calls = downloadNil()
        XCTAssertEqual(calls.count, 1)
        XCTAssertEqual(calls.first?.finished, true)
        XCTAssertEqual((calls.first?.error as NSError?)?.domain, SDWebImageErrorDomain)
        XCTAssertEqual((calls.first?.error as NSError?)?.code, 1000)
    }
}
