import Foundation
import SDPort

/// Format sniffing (`Data.sd_imageFormat(forImageData:)`) and the format's mappings: any bytes give a format,
/// the mappings of that format agree with each other, and the coders manager's answer follows the sniffed format.
enum SniffHarness {
    static func run(_ data: Data) {
        let format = Data.sd_imageFormat(forImageData: data)
        if let fileExtension = format.fileExtension {
            precondition(SDImageFormat(fileExtension: fileExtension) == format, "extension round trip for \(format)")
        }
        if data.isEmpty { precondition(format == .undefined, "empty data has no format") }
        _ = SDWebImageCodersManager.shared.canDecode(from: data)
        _ = SDWebImageCodersManager.shared.coder(forDecoding: data)
    }
}
