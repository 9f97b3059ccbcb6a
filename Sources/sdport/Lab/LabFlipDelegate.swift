import Foundation
import SDPort

/// The 4.4.8 way to transform a downloaded image, for the lab's transformer scenario: a manager delegate that
/// implements `transformDownloadedImage` (the port's `SDWebImageManagerTransformingDelegate`) and flips it horizontally (with the same `SDImageFlippingTransformer` the 5.x run puts
/// in its context). 4.4.8 stores the result under the URL's own key
/// (https://github.com/SDWebImage/SDWebImage/blob/4.4.8/SDWebImage/SDWebImageManager.m#L258; the key is made at `:153`).
/// Immutable, so Sendable. Port addition.
final class LabFlipDelegate: SDWebImageManagerTransformingDelegate {
    let transformer = SDImageFlippingTransformer(horizontal: true, vertical: false)

    func imageManager(
        _ imageManager: SDWebImageManager, transformDownloadedImage image: UIImage?,
        withURL imageURL: URL?
    ) -> UIImage? {
        guard let image else { return nil }
        return transformer.transformedImage(with: image, forKey: imageURL?.absoluteString ?? "")
    }
}
