import Foundation

/// Ports `NSData+ImageContentType` (4.4.8): telling an image's format from its first bytes (FAQ-04), and
/// the format's uniform type identifier. The file-extension and MIME-type mapping (COD-08) is the port's
/// own addition, used to name cache files and to answer HTTP requests; the original has no such mapping.
/// At tag 4.4.8: `SDWebImage/NSData+ImageContentType.m:25` (`+sd_imageFormatForImageData:`), `SDWebImage/NSData+ImageContentType.m:73` (`+sd_UTTypeFromSDImageFormat:`).
extension Data {
    /// Ports `+[NSData sd_imageFormatForImageData:]`. Only the first byte decides, except for WebP
    /// ("RIFF" + 4 bytes + "WEBP" in the first 12) and HEIC/HEIF (an `ftyp` brand at bytes 4..<12).
    /// nil or empty data is `.undefined` (the original would read an uninitialised byte for empty data).
    public static func sd_imageFormat(forImageData data: Data?) -> SDImageFormat {
        guard let data, let first = data.first else { return .undefined }
        switch first {
        case 0xFF: return .jpeg
        case 0x89: return .png
        case 0x47: return .gif
        case 0x49, 0x4D: return .tiff
        case 0x52:
            if data.count >= 12, data.bytes(in: 0..<4, equal: "RIFF"), data.bytes(in: 8..<12, equal: "WEBP") {
                return .webp
            }
        case 0x00:
            if data.count >= 12 {
                if heicBrands.contains(where: { data.bytes(in: 4..<12, equal: $0) }) { return .heic }
                if heifBrands.contains(where: { data.bytes(in: 4..<12, equal: $0) }) { return .heif }
            }
        default:
            break
        }
        return .undefined
    }

    /// Ports `+[NSData sd_UTTypeFromSDImageFormat:]`: the uniform type identifier, PNG's for undefined.
    public static func sd_UTType(from format: SDImageFormat) -> String {
        switch format {
        case .jpeg: return "public.jpeg"
        case .png, .undefined: return "public.png"
        case .gif: return "com.compuserve.gif"
        case .tiff: return "public.tiff"
        case .webp: return "public.webp"
        case .heic: return "public.heic"
        case .heif: return "public.heif"
        }
    }

    /// Ports `+[NSData sd_imageFormatFromUTType:]`.
    public static func sd_imageFormat(fromUTType uttype: String?) -> SDImageFormat {
        guard let uttype else { return .undefined }
        return SDImageFormat.allCases.first { $0 != .undefined && sd_UTType(from: $0) == uttype } ?? .undefined
    }

    /// The `ftyp` brands at bytes 4..<12 that `sd_imageFormat(forImageData:)` reads as HEIC, and as HEIF.
    private static let heicBrands: [StaticString] = ["ftypheic", "ftypheix", "ftyphevc", "ftyphevx"]
    private static let heifBrands: [StaticString] = ["ftypmif1", "ftypmsf1"]

    /// Whether the bytes in `range` are `ascii`'s, compared byte by byte: no string is made from the data, since
    /// every download's first bytes pass through here.
    private func bytes(in range: Range<Int>, equal ascii: StaticString) -> Bool {
        withUnsafeBytes { data in
            ascii.withUTF8Buffer { UnsafeRawBufferPointer(rebasing: data[range]).elementsEqual($0) }
        }
    }
}

/// Format ↔ file extension and MIME type (COD-08).
extension SDImageFormat {
    /// The usual file extension, without the dot; nil for `.undefined`.
    public var fileExtension: String? {
        switch self {
        case .undefined: return nil
        case .jpeg: return "jpg"
        case .png: return "png"
        case .gif: return "gif"
        case .tiff: return "tiff"
        case .webp: return "webp"
        case .heic: return "heic"
        case .heif: return "heif"
        }
    }

    /// The MIME type; `application/octet-stream` for `.undefined`.
    public var mimeType: String {
        switch self {
        case .undefined: return "application/octet-stream"
        case .jpeg: return "image/jpeg"
        case .png: return "image/png"
        case .gif: return "image/gif"
        case .tiff: return "image/tiff"
        case .webp: return "image/webp"
        case .heic: return "image/heic"
        case .heif: return "image/heif"
        }
    }

    /// The format a file extension names (case-insensitive; "jpeg" and "jpg", "tif" and "tiff" both work).
    public init(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "jpg", "jpeg", "jpe": self = .jpeg
        case "png": self = .png
        case "gif": self = .gif
        case "tif", "tiff": self = .tiff
        case "webp": self = .webp
        case "heic": self = .heic
        case "heif": self = .heif
        default: self = .undefined
        }
    }

    /// The format a MIME type names (parameters such as `; charset` are ignored).
    public init(mimeType: String) {
        let bare =
            mimeType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        if bare == "image/jpg" || bare == "image/pjpeg" {
            self = .jpeg
            return
        }
        self = SDImageFormat.allCases.first { $0 != .undefined && $0.mimeType == bare } ?? .undefined
    }
}
