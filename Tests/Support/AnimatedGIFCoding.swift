import SDPort

/// What a 4.4.8 app does to get animated GIFs: add `SDWebImageGIFCoder` to the shared coders manager (the
/// default set, `SDWebImageImageIOCoder` + `SDWebImageWebPCoder`, decodes a GIF's first frame only).
/// `enabled` adds it for the duration of `body` and removes it afterwards, so other tests see the default set.
public enum AnimatedGIFCoding {
    public static func enabled<T>(_ body: () throws -> T) rethrows -> T {
        SDWebImageCodersManager.shared.addCoder(SDWebImageGIFCoder.shared)
        defer { SDWebImageCodersManager.shared.removeCoder(SDWebImageGIFCoder.shared) }
        return try body()
    }

    /// A coders manager with the default set plus the animated GIF coder (asked first for GIFs).
    public static func manager() -> SDWebImageCodersManager {
        SDWebImageCodersManager(coders: SDWebImageCodersManager.defaultCoders() + [SDWebImageGIFCoder.shared])
    }
}
