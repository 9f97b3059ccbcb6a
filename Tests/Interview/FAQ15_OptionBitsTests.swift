import SDPort
import XCTest

/// Proves FAQ-15: the card is `Docs/knowledge/faq/FAQ-15.json` (question, answer, citations; `sdport faq 15` prints
/// it).
///
/// Checks the raw value of every manager and downloader option against the 4.4 bit positions, and that combining is a
/// bitwise OR and `contains` a bitwise AND.
final class FAQ15_OptionBitsTests: XCTestCase {
    /// Parity: FAQ-15 — the manager's flags keep their 4.4 bit positions.
    func test_FAQ15_managerOptionBitValues() {
        let expected: [(SDWebImageOptions, UInt)] = [
            (.retryFailed, 0), (.lowPriority, 1), (.cacheMemoryOnly, 2), (.progressiveDownload, 3),
            (.refreshCached, 4), (.continueInBackground, 5), (.handleCookies, 6), (.allowInvalidSSLCertificates, 7),
            (.highPriority, 8), (.delayPlaceholder, 9), (.transformAnimatedImage, 10), (.avoidAutoSetImage, 11),
            (.scaleDownLargeImages, 12), (.queryDataWhenInMemory, 13), (.queryDiskSync, 14), (.fromCacheOnly, 15),
            (.forceTransition, 16),
        ]
        for (option, bit) in expected {
            XCTAssertEqual(option.rawValue, 1 << bit)
        }
    }

    /// Parity: FAQ-15 — the downloader's flags keep their 4.4 bit positions.
    func test_FAQ15_downloaderOptionBitValues() {
        let expected: [(SDWebImageDownloaderOptions, UInt)] = [
            (.lowPriority, 0), (.progressiveDownload, 1), (.useNSURLCache, 2), (.ignoreCachedResponse, 3),
            (.continueInBackground, 4), (.handleCookies, 5), (.allowInvalidSSLCertificates, 6), (.highPriority, 7),
            (.scaleDownLargeImages, 8),
        ]
        for (option, bit) in expected {
            XCTAssertEqual(option.rawValue, 1 << bit)
        }
    }

    /// Parity: FAQ-15 — combining is a bitwise OR and testing a bitwise AND.
    func test_FAQ15_combineWithOrTestWithAnd() {
        let options: SDWebImageOptions = [.retryFailed, .highPriority]
        XCTAssertEqual(options.rawValue, (1 << 0) | (1 << 8))
        XCTAssertTrue(options.rawValue & SDWebImageOptions.highPriority.rawValue != 0)
        XCTAssertTrue(options.contains(.retryFailed))
        XCTAssertFalse(options.contains(.lowPriority))
    }
}
