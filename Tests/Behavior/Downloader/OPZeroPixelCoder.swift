import Foundation
import SDPort

/// A coder for OP-04's zero-pixel rule: data starting with "SDZERO" decodes to an image with no pixels.
/// Nothing else decodes through it, so registering it on the shared manager does not change other formats.
final class OPZeroPixelCoder: SDWebImageCoder, @unchecked Sendable {
    static let signature = Data("SDZERO-image".utf8)

    func canDecode(from data: Data?) -> Bool {
        data?.starts(with: Data("SDZERO".utf8)) ?? false
    }

    func decodeImage(from data: Data) throws -> UIImage {
        UIImage(pixelWidth: 0, pixelHeight: 0, pixels: [], hasAlpha: false)
    }

    func decompressedImage(with image: UIImage?, data: inout Data?, options: SDWebImageCoderOptions?) -> UIImage? {
        image
    }

    func canEncode(to format: SDImageFormat) -> Bool { false }

    func encodedData(with image: UIImage?, format: SDImageFormat) -> Data? { nil }
}
