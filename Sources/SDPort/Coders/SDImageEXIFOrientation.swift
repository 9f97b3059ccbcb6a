import Foundation

/// Placeholder until the libexif-backed implementation lands (replaced on merge).
public enum SDImageEXIFOrientation: Int, Sendable, CaseIterable {
    case up = 1, upMirrored = 2, down = 3, downMirrored = 4, leftMirrored = 5, right = 6, rightMirrored = 7, left = 8

    public static func of(jpegData data: Data) -> SDImageEXIFOrientation { .up }

    public func applied(to image: UIImage) -> UIImage { image }
}
