import Foundation
import SDPort
import XCTest

/// Proves FAQ-04: the card is `Docs/knowledge/faq/FAQ-04.json` (question, answer, citations; `sdport faq 4` prints it).
///
/// Feeds `Data.sd_imageFormat(forImageData:)` the signature bytes of each format, RIFF headers with and without WEBP,
/// the HEIC `ftyp` brands, and nil, empty and unknown data, and checks the format it answers.
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

    /// Parity: FAQ-04 — HEIF's brands too, and the bytes are read from where the data starts, also when it is a slice
    /// of a larger buffer.
    func test_FAQ04_heifBrandsAndSlicesAreRecognised() {
        for brand in ["mif1", "msf1"] {
            let data = Data([0, 0, 0, 0x18]) + Data("ftyp\(brand)".utf8)
            XCTAssertEqual(Data.sd_imageFormat(forImageData: data), .heif, brand)
        }
        let buffer = Data("xxRIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)
        let slice = buffer[2...]
        XCTAssertEqual(slice.startIndex, 2, "a slice keeps its indices")
        XCTAssertEqual(Data.sd_imageFormat(forImageData: slice), .webp)
    }

    /// Parity: FAQ-04 — nil, empty and unknown data are undefined.
    func test_FAQ04_nilEmptyAndUnknownAreUndefined() {
        XCTAssertEqual(Data.sd_imageFormat(forImageData: nil), .undefined)
        XCTAssertEqual(Data.sd_imageFormat(forImageData: Data()), .undefined)
        XCTAssertEqual(Data.sd_imageFormat(forImageData: Data("<svg></svg>".utf8)), .undefined)
    }
}
