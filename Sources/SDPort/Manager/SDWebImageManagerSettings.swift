import Foundation

/// The manager's settings as one value behind its one lock (`SDWebImageManager.settings`). 4.4.8 keeps them as
/// properties of `SDWebImageManager`; the port keeps those names as the public API, forwarding here.
struct SDWebImageManagerSettings {
    /// Held weakly, as 4.4.8 holds its delegate.
    weak var delegate: (any SDWebImageManagerDelegate)?
    var cacheKeyFilter: SDWebImageCacheKeyFilterBlock?
    var cacheSerializer: SDWebImageCacheSerializerBlock?
    var completionQueue: DispatchQueue = .main
}
