import Foundation
import SDPort
import XCTest

/// Format ↔ file extension and MIME type (COD-08), and the UTI mapping of `NSData+ImageContentType`.
final class COD08_FormatMappingTests: XCTestCase {
    /// Parity: COD-08 — every format round-trips through its extension and its MIME type.
    func test_COD08_extensionAndMimeRoundTrip() {
        for format in SDImageFormat.allCases where format != .undefined {
            XCTAssertEqual(SDImageFormat(fileExtension: format.fileExtension!), format)
            XCTAssertEqual(SDImageFormat(mimeType: format.mimeType), format)
            XCTAssertEqual(Data.sd_imageFormat(fromUTType: Data.sd_UTType(from: format)), format)
        }
        XCTAssertEqual(SDImageFormat(fileExtension: "JPEG"), .jpeg)
        XCTAssertEqual(SDImageFormat(mimeType: "image/png; charset=binary"), .png)
        XCTAssertEqual(SDImageFormat(fileExtension: "txt"), .undefined)
        XCTAssertNil(SDImageFormat.undefined.fileExtension)
        XCTAssertEqual(Data.sd_UTType(from: .undefined), "public.png", "the original falls back to PNG's UTI")
    }
}
