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

    /// Parity: COD-08 — every concrete string, not only round trips: the UTIs are 4.4.8's (`kUTTypeJPEG`,
    /// `kUTTypePNG`, `kUTTypeGIF`, `kUTTypeTIFF` and the `kSDUTType…` constants of `NSData+ImageContentType.m`);
    /// the MIME types and extensions are the port's (4.4.8 has no such mapping; 5.x's `SDImageFormat` helpers
    /// use the same IANA names).
    func test_COD08_everyUTIAndMimeTypeString() {
        let expected: [(SDImageFormat, uti: String, mime: String, ext: String?)] = [
            (.jpeg, "public.jpeg", "image/jpeg", "jpg"),
            (.png, "public.png", "image/png", "png"),
            (.gif, "com.compuserve.gif", "image/gif", "gif"),
            (.tiff, "public.tiff", "image/tiff", "tiff"),
            (.webp, "public.webp", "image/webp", "webp"),
            (.heic, "public.heic", "image/heic", "heic"),
            (.heif, "public.heif", "image/heif", "heif"),
            (.undefined, "public.png", "application/octet-stream", nil),
        ]
        XCTAssertEqual(Set(expected.map(\.0)), Set(SDImageFormat.allCases), "every format is listed")
        for (format, uti, mime, ext) in expected {
            XCTAssertEqual(Data.sd_UTType(from: format), uti, "\(format)")
            XCTAssertEqual(format.mimeType, mime, "\(format)")
            XCTAssertEqual(format.fileExtension, ext, "\(format)")
        }
        XCTAssertEqual(Data.sd_imageFormat(fromUTType: "com.compuserve.gif"), .gif)
        XCTAssertEqual(Data.sd_imageFormat(fromUTType: "public.jpeg"), .jpeg)
        XCTAssertEqual(Data.sd_imageFormat(fromUTType: "public.image"), .undefined)
        XCTAssertEqual(Data.sd_imageFormat(fromUTType: nil), .undefined)
        for alias in ["image/jpg", "image/pjpeg", "IMAGE/JPEG"] {
            XCTAssertEqual(SDImageFormat(mimeType: alias), .jpeg, alias)
        }
        for ext in ["jpe", "jpeg", "tif"] {
            XCTAssertNotEqual(SDImageFormat(fileExtension: ext), .undefined, ext)
        }
    }
}
