import Foundation

/// The manager's settings as one value behind its one lock (`SDWebImageManager.settings`). 4.4.8 keeps the delegate,
/// `cacheKeyFilter` and `cacheSerializer` as properties of `SDWebImageManager` (`completionQueue` is the port's);
/// the port keeps those names as the public API, forwarding here.
struct SDWebImageManagerSettings {
    /// Held weakly, as 4.4.8 holds its delegate.
    weak var delegate: (any SDWebImageManagerDelegate)?
    var cacheKeyFilter: SDWebImageCacheKeyFilterBlock?
    var cacheSerializer: SDWebImageCacheSerializerBlock?
    var completionQueue: DispatchQueue = .main
}
