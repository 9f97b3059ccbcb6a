import Foundation
import SDPort
import XCTest

/// FAQ-04 — How does SDWebImage know an image's format before decoding it?
///
/// Answer: it reads the first byte (`+[NSData sd_imageFormatForImageData:]`, `NSData+ImageContentType.m`,
/// 4.4.8): 0xFF is JPEG, 0x89 PNG, 0x47 ('G') GIF, 0x49 ('I') or 0x4D ('M') TIFF; 0x52 ('R') is WebP only when
/// the first 12 bytes read "RIFF....WEBP"; 0x00 is HEIC when bytes 4..<12 are an `ftyp` brand of HEVC.
/// Anything else, and nil data, is undefined. Port: `Data.sd_imageFormat(forImageData:)`; its answer for empty
/// data (undefined) is the port's own guard — 4.4.8 returns early only for nil and then reads one byte of an empty
/// buffer (`NSData+ImageContentType.m:31-32`), a byte it never got.
final class FAQ04_FormatSniffingTests: XCTestCase {
    /// Parity: FAQ-04 — each signature byte maps to its format.
    func test_FAQ04_firstByteDecidesTheFormat() {
        XCTAssertEqual(Data.sd_imageFormat(forImageData: Data([0xFF, 0xD8, 0xFF])), .jpeg)
        XCTAssertEqual(Data.sd_imageFormat(forImageData: Data([0x89, 0x50, 0x4E, 0x47])), .png)
        XCTAssertEqual(Data.sd_imageFormat(forImageData: Data("GIF89a".utf8)), .gif)
        XCTAssertEqual(Data.sd_imageFormat(forImageData: Data([0x49, 0x49, 0x2A, 0x00])), .tiff)
        XCTAssertEqual(Data.sd_imageFormat(forImageData: Data([0x4D, 0x4D, 0x00, 0x2A])), .tiff)
    }

    /// Parity: FAQ-04 — WebP needs the whole RIFF....WEBP header; "R" alone is not enough.
    func test_FAQ04_webpNeedsRiffAndWebpInFirstTwelveBytes() {
        XCTAssertEqual(Data.sd_imageFormat(forImageData: Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)), .webp)
        XCTAssertEqual(Data.sd_imageFormat(forImageData: Data("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8)), .undefined)
        XCTAssertEqual(Data.sd_imageFormat(forImageData: Data("RIFF".utf8)), .undefined)
    }

    /// Parity: FAQ-04 — HEIC is recognised from its ftyp brand at bytes 4..<12.
    func test_FAQ04_heicBrandsAreRecognised() {
        for brand in ["heic", "heix", "hevc", "hevx"] {
            let data = Data([0, 0, 0, 0x18]) + Data("ftyp\(brand)".utf8)
            XCTAssertEqual(Data.sd_imageFormat(forImageData: data), .heic, brand)
        }
        XCTAssertEqual(Data.sd_imageFormat(forImageData: Data([0, 0, 0, 0x18]) + Data("ftypmp42".utf8)), .undefined)
    }

    /// Parity: FAQ-04 — nil, empty and unknown data are undefined.
    func test_FAQ04_nilEmptyAndUnknownAreUndefined() {
        XCTAssertEqual(Data.sd_imageFormat(forImageData: nil), .undefined)
        XCTAssertEqual(Data.sd_imageFormat(forImageData: Data()), .undefined)
        XCTAssertEqual(Data.sd_imageFormat(forImageData: Data("<svg></svg>".utf8)), .undefined)
    }
}
