/// The ten steps a cold `sd_setImage(with:)` goes through, in order, as the articles' sequence diagram draws
/// them. The port reports each through `SDWebImageTrace` (`sdport --trace` prints them).
///
/// A load that finds its image in memory stops after `memoryQuery`; one found on disk after `diskQuery`;
/// a load made on the manager directly, without a view, has no `viewSetImage` and no `viewDisplay`.
public enum SDWebImageFlowStep: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// 1. `UIView+WebCache` `sd_internalSetImage` starts: placeholder, cancel of the previous load.
    case viewSetImage = 1
    /// 2. `SDWebImageManager.loadImage` checks the URL and the failed-URL list.
    case managerLoad
    /// 3. `SDImageCache` looks in the memory cache.
    case memoryQuery
    /// 4. `SDImageCache` searches the disk on its io queue.
    case diskQuery
    /// 5. `SDWebImageDownloader` starts (or joins) a download operation.
    case downloadStart
    /// 6. `SDWebImageDownloaderOperation` (the downloader's default operation class) receives the response and the
    /// data.
    case downloadResponse
    /// 7. The coders decode the data and force-decode it (4.4.8 force-decodes on iOS, tvOS and watchOS, with
    ///    `shouldDecompressImages`, never an animated image, and in its download path never a GIF).
    case decode
    /// 8. `SDImageCache` stores the image in memory and on disk.
    case store
    /// 9. The manager calls its completion.
    case managerCompletion
    /// 10. The view sets the image.
    case viewDisplay

    /// The step's layer and name, as `--trace` prints them ("cache: memory query").
    public var description: String {
        switch self {
        case .viewSetImage: return "view: sd_setImage"
        case .managerLoad: return "manager: loadImage"
        case .memoryQuery: return "cache: memory query"
        case .diskQuery: return "cache: disk query"
        case .downloadStart: return "downloader: start download"
        case .downloadResponse: return "operation: response and data"
        case .decode: return "coder: decode"
        case .store: return "cache: store"
        case .managerCompletion: return "manager: completion"
        case .viewDisplay: return "view: set image"
        }
    }
}
