/// Which manager entry point a lab run goes through. Port addition.
enum LabFlow: String, Sendable, Codable {
    /// `loadImage(with:options:progress:completed:)` with 4.4.8's `SDWebImageOptions` (`SDWebImageManager.m` at 4.4.8).
    case v4 = "4.4.8"
    /// `loadImage(with:options:context:progress:completed:)` with `SDWebImageV5Options` and a context (5.x loader layer).
    case v5 = "5.x"

    var entryPoint: String {
        switch self {
        case .v4: return "SDWebImageManager.loadImage(with:options:)"
        case .v5: return "SDWebImageManager.loadImage(with:options:context:) via SDImageLoader"
        }
    }
}
