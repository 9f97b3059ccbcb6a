/// One completion call a lab run saw, in the order the calls came. Port addition.
struct LabCallback: Codable, Sendable, Equatable {
    /// 1 or 2 (the two-callers scenario has two).
    let caller: Int
    /// "2x2", or nil when the call had no image.
    let image: String?
    /// The colour of the image's top-left pixel ("red", "blue", …): a flipped sample image starts with blue.
    let topLeft: String?
    let errorDomain: String?
    let errorCode: Int?
    /// "none", "disk" or "memory" (4.4.8's `SDImageCacheType`).
    let cacheType: String
    let finished: Bool

    var text: String {
        var parts = ["caller \(caller)"]
        if let image {
            parts.append("image \(image)" + (topLeft.map { " (top-left \($0))" } ?? ""))
        } else {
            parts.append("no image")
        }
        if let errorDomain, let errorCode {
            parts.append("error \(errorDomain) \(errorCode)")
        } else {
            parts.append("no error")
        }
        parts.append("cacheType \(cacheType)")
        parts.append(finished ? "finished" : "not finished")
        return parts.joined(separator: ", ")
    }
}
