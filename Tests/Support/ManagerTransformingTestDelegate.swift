import Foundation
import SDPort

/// A `ManagerTestDelegate` that also implements the transform (`SDWebImageManagerTransformingDelegate`): it applies
/// `transform` and records the thread of each call.
public final class ManagerTransformingTestDelegate: ManagerTestDelegate, SDWebImageManagerTransformingDelegate,
    @unchecked Sendable
{
    /// Guards `_transform`.
    private let transformLock = NSLock()
    private var _transform: (@Sendable (UIImage?) -> UIImage?)?

    /// For each transform call: whether it ran on the main thread.
    public let transformThreads = Recorder<Bool>()

    public override init() {}

    /// What the transform does; nil returns the image unchanged.
    public var transform: (@Sendable (UIImage?) -> UIImage?)? {
        get { transformLock.withLock { _transform } }
        set { transformLock.withLock { _transform = newValue } }
    }

    public func imageManager(
        _ imageManager: SDWebImageManager, transformDownloadedImage image: UIImage?,
        withURL imageURL: URL?
    ) -> UIImage? {
        transformThreads.append(Thread.isMainThread)
        return transform.map { $0(image) } ?? image
    }
}
