import Foundation
import SDPort

/// Writes a decoded image as a PNG file (`load --output`), through the port's own PNG encoder.
enum PNGOutput {
    /// Writes `image` (an animated one as a contact sheet) to `path`; returns a description of what was written.
    static func write(_ image: UIImage, to path: String) throws -> String {
        let sheet = ContactSheet.make(from: image)
        guard let data = SDWebImageCodersManager.shared.encodedData(with: sheet, format: .png) else {
            throw SDPortFailure(.outputUnwritable, "cannot encode the image as PNG for \(path)")
        }
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw SDPortFailure(.outputUnwritable, "cannot write \(path): \(CacheFactory.reason(of: error))")
        }
        let frames = image.images?.count ?? 1
        let what = frames > 1 ? "contact sheet of \(frames) frames, " : ""
        return "wrote \(path) (\(what)\(sheet.pixelWidth)×\(sheet.pixelHeight), \(ByteCount.text(UInt64(data.count))))"
    }
}
