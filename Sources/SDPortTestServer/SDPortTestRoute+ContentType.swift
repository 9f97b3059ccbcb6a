import Foundation

extension SDPortTestRoute {
    /// The content type `serveDirectory` and `.file` use for a file: from its extension (jpg/jpeg, png, gif,
    /// webp), `application/octet-stream` for anything else, so a test can serve "garbage.jpg" as an image.
    public static func contentTypeForFile(_ url: URL) -> String {
        switch url.pathExtension.lowercased() {
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        default: return "application/octet-stream"
        }
    }
}
