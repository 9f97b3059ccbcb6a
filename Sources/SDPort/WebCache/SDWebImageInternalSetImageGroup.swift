import Foundation

/// Context key of `sd_internalSetImage`: a dispatch group the view enters before each image it sets (the
/// placeholder, then the loaded image), for a custom set-image block to leave when its own work is done
/// (VIEW-10). Ports `SDWebImageInternalSetImageGroupKey` (`UIView+WebCache.m`, 4.4.8; gone in 5.x). The value is
/// an `SDWebImageInternalSetImageGroup`, or a bare `DispatchGroup` (which never delays the completion).
/// At tag 4.4.8: `SDWebImage/UIView+WebCache.m:13` (`SDWebImageInternalSetImageGroupKey`).
public let SDWebImageInternalSetImageGroupKey = "internalSetImageGroup"

/// The value of `SDWebImageInternalSetImageGroupKey`: the dispatch group, and whether the view waits for it
/// before it calls the completion.
///
/// 4.4.8 passes a bare `dispatch_group_t` and keeps that second switch as an associated object on the group
/// itself (`objc_setAssociatedObject(group, &SDWebImageInternalSetImageGroupKey, @YES, …)`, set by
/// `FLAnimatedImageView+WebCache` when it decodes a GIF in the background). Linux's libdispatch objects carry
/// no associated objects, so the port holds the group and the switch together in this object. When the view sets
/// the loaded image (or the delayed placeholder) and the switch is on, it calls its completion (and
/// `setNeedsLayout`) through `group.notify(queue: .main)`, after every `enter` has been matched by a `leave`; when
/// off, at once after setting the image, as 4.4.8 does. An answer that sets nothing calls it without waiting.
/// At tag 4.4.8: `SDWebImage/UIView+WebCache.m:74` (`-sd_internalSetImageWithURL:placeholderImage:options:operationKey:internalSetImageBlock:progress:completed:context:`).
public final class SDWebImageInternalSetImageGroup: @unchecked Sendable {
    /// The group the view enters; whoever sets the image leaves it.
    public let group: DispatchGroup

    /// Guards `_notifiesCompletion`: the set-image block may turn it on from any thread.
    private let lock = NSLock()
    private var _notifiesCompletion: Bool

    /// Whether the completion waits for the group (4.4.8's associated `@YES` on the group). Off by default.
    public var notifiesCompletion: Bool {
        get { lock.withLock { _notifiesCompletion } }
        set { lock.withLock { _notifiesCompletion = newValue } }
    }

    /// A context around `group`; `notifiesCompletion` says whether the completion waits for it.
    public init(group: DispatchGroup = DispatchGroup(), notifiesCompletion: Bool = false) {
        self.group = group
        _notifiesCompletion = notifiesCompletion
    }

    /// The group in a view context's `SDWebImageInternalSetImageGroupKey` entry, if any.
    static func from(_ context: SDWebImageViewContext?) -> SDWebImageInternalSetImageGroup? {
        switch context?[SDWebImageInternalSetImageGroupKey] {
        case let holder as SDWebImageInternalSetImageGroup: return holder
        case let group as DispatchGroup: return SDWebImageInternalSetImageGroup(group: group)
        default: return nil
        }
    }
}
