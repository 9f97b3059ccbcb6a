import Foundation
import SDPort

/// A manager delegate whose answers a test sets and whose calls it records. It has no transform, as a delegate
/// that implements only the two questions (`ManagerTransformingTestDelegate` adds one).
public class ManagerTestDelegate: SDWebImageManagerDelegate, @unchecked Sendable {
    /// Guards the settings below.
    private let lock = NSLock()
    private var _allowDownloads = true
    private var _blockFailedURLs = true

    /// URLs it was asked to allow a download for.
    public let downloadQuestions = Recorder<URL?>()
    /// Errors it was asked to blacklist for.
    public let blockQuestions = Recorder<NSError>()

    public init() {}

    public var allowDownloads: Bool {
        get { lock.withLock { _allowDownloads } }
        set { lock.withLock { _allowDownloads = newValue } }
    }

    public var blockFailedURLs: Bool {
        get { lock.withLock { _blockFailedURLs } }
        set { lock.withLock { _blockFailedURLs = newValue } }
    }

    public func imageManager(_ imageManager: SDWebImageManager, shouldDownloadImageFor imageURL: URL?) -> Bool {
        downloadQuestions.append(imageURL)
        return allowDownloads
    }

    public func imageManager(
        _ imageManager: SDWebImageManager, shouldBlockFailedURL imageURL: URL,
        withError error: Error
    ) -> Bool {
        blockQuestions.append(error as NSError)
        return blockFailedURLs
    }
}
