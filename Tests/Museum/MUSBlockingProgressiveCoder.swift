import Foundation
import SDPort
import SDPortTestSupport

/// A progressive coder for data starting with "SDPB" whose first partial decode waits until the test releases
/// it (when the whole body has arrived), so every later chunk finds a decode in flight (MUS-12).
// Its state is static and locked.
final class MUSBlockingProgressiveCoder: SDWebImageProgressiveCoder, @unchecked Sendable {
    static let partialCalls = Locked(0)
    static let release = DispatchSemaphore(value: 0)
    private static let magic = Data("SDPB".utf8)

    required init() {}
    func canDecode(from data: Data?) -> Bool { data?.prefix(4) == Self.magic }
    func canIncrementallyDecode(from data: Data?) -> Bool { canDecode(from: data) }
    func decodeImage(from data: Data) throws -> UIImage { Self.pixel }
    func incrementallyDecodedImage(with data: Data?, finished: Bool) -> UIImage? {
        var call = 0
        Self.partialCalls.update {
            $0 += 1
            call = $0
        }
        if call == 1 { _ = Self.release.wait(timeout: .now() + 30) }
        return Self.pixel
    }
    func decompressedImage(with image: UIImage?, data: inout Data?, options: SDWebImageCoderOptions?) -> UIImage? {
        image
    }
    func canEncode(to format: SDImageFormat) -> Bool { false }
    func encodedData(with image: UIImage?, format: SDImageFormat) -> Data? { nil }

    private static var pixel: UIImage {
        UIImage(pixelWidth: 1, pixelHeight: 1, pixels: [0, 0, 0, 255], hasAlpha: false)
    }
}
