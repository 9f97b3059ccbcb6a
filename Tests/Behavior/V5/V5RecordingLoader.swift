import Foundation
import SDPort

/// A loader for `v5test:` URLs that answers with a fixed image and counts its requests (V5-03).
final class V5RecordingLoader: SDImageLoader, @unchecked Sendable {
    /// Guards `requested`.
    private let lock = NSLock()
    private var requested: [URL] = []
    let image: UIImage

    init(image: UIImage) {
        self.image = image
    }

    var requestedURLs: [URL] { lock.withLock { requested } }

    func canRequestImage(for url: URL?) -> Bool {
        url?.scheme == "v5test"
    }

    func requestImage(
        with url: URL?, options: SDWebImageV5Options, context: SDWebImageContext?,
        progress: SDImageLoaderProgressBlock?,
        completed: SDImageLoaderCompletedBlock?
    ) -> (any SDWebImageOperation)? {
        if let url { lock.withLock { requested.append(url) } }
        let image = self.image
        DispatchQueue.global().async { completed?(image, nil, nil, true) }
        return nil
    }

    func shouldBlockFailedURL(with url: URL, error: Error) -> Bool { false }
}
