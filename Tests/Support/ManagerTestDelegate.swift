import Foundation
import SDPort

/// A manager delegate whose answers a test sets and whose calls it records.
public final class ManagerTestDelegate: SDWebImageManagerDelegate, @unchecked Sendable {
    /// Guards the settings below.
    private let lock = NSLock()
    private var _allowDownloads = true
    private var _blockFailedURLs = true
    private var _transform: (@Sendable (UIImage?) -> UIImage?)?

    /// URLs it was asked to allow a download for.
    public let downloadQuestions = Recorder<URL?>()
    /// Errors it was asked to blacklist for.
    public let blockQuestions = Recorder<NSError>()
    /// For each transform call: whether it ran on the main thread.
    public let transformThreads = Recorder<Bool>()

    public init() {}

    public var allowDownloads: Bool {
        get { lock.withLock { _allowDownloads } }
        set { lock.withLock { _allowDownloads = newValue } }
    }

    public var blockFailedURLs: Bool {
        get { lock.withLock { _blockFailedURLs } }
        set { lock.withLock { _blockFailedURLs = newValue } }
    }

    /// nil: behave as a delegate without a transform (return the image unchanged) but do not record a call.
    public var transform: (@Sendable (UIImage?) -> UIImage?)? {
        get { lock.withLock { _transform } }
        set { lock.withLock { _transform = newValue } }
    }

    public func imageManager(_ imageManager: SDWebImageManager, shouldDownloadImageFor imageURL: URL?) -> Bool {
        downloadQuestions.append(imageURL)
        return allowDownloads
    }

    public func imageManager(_ imageManager: SDWebImageManager, shouldBlockFailedURL imageURL: URL,
                             withError error: Error) -> Bool {
        blockQuestions.append(error as NSError)
        return blockFailedURLs
    }

    public func imageManager(_ imageManager: SDWebImageManager, transformDownloadedImage image: UIImage?,
                             withURL imageURL: URL?) -> UIImage? {
        guard let transform else { return image }
        transformThreads.append(Thread.isMainThread)
        return transform(image)
    }
}
