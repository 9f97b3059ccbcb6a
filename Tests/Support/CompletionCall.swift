import Foundation
import SDPort

/// One call of a manager completion, as a test saw it.
public struct CompletionCall: Sendable {
    public let image: UIImage?
    public let data: Data?
    public let error: Error?
    public let cacheType: SDImageCacheType
    public let finished: Bool
    public let url: URL?
    /// Whether it ran on the main thread.
    public let onMainThread: Bool

    public init(image: UIImage?, data: Data?, error: Error?, cacheType: SDImageCacheType, finished: Bool, url: URL?) {
        self.image = image
        self.data = data
        self.error = error
        self.cacheType = cacheType
        self.finished = finished
        self.url = url
        onMainThread = Thread.isMainThread
    }

    /// The error's code, or nil.
    public var errorCode: Int? { error.map { ($0 as NSError).code } }
    /// The error's domain, or nil.
    public var errorDomain: String? { error.map { ($0 as NSError).domain } }
}

extension ManagerTestEnvironment {
    /// Loads `url` through the manager and waits (running the main queue) for the first finished completion and
    /// for the load to leave `runningOperations`. Returns every call received by then, and the operation.
    @discardableResult
    public func load(
        _ url: URL?, options: SDWebImageOptions = [], timeout: TimeInterval = 15,
        manager: SDWebImageManager? = nil
    ) -> (calls: [CompletionCall], operation: SDWebImageCombinedOperation) {
        let calls = Recorder<CompletionCall>()
        let operation = (manager ?? self.manager).loadImage(with: url, options: options) {
            image, data, error, cacheType, finished, imageURL in
            calls.append(
                CompletionCall(
                    image: image, data: data, error: error, cacheType: cacheType,
                    finished: finished, url: imageURL))
        }
        let loader = manager ?? self.manager
        // The finished completion, then the end of the load: as in the original, the manager calls the completion
        // before it updates the failed-URL list and `runningOperations`.
        waitUntil(timeout: timeout) {
            calls.values.contains { $0.finished } && !loader.runningOperations.contains { $0 === operation }
        }
        return (calls.values, operation)
    }
}
