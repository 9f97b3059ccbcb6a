import Foundation
import SDPort

/// The harnesses: each decoder (full and incremental), format sniffing, cache file names, and the HTTP
/// response handling of the libcurl task.
enum FuzzTarget: String, CaseIterable {
    case jpeg, png, gif, webp, sniff, cachename, http

    /// Work done once, before the first input.
    func prepare() {
        switch self {
        case .cachename: _ = CacheNameHarness.cache
        case .http: _ = HTTPHarness.shared
        default: break
        }
    }

    func run(_ data: Data) {
        switch self {
        case .jpeg:
            DecoderHarness.run(
                data, coders: [SDWebImageImageIOCoder.shared, SDWebImageJPEGCoder.shared],
                progressive: [{ SDWebImageImageIOCoder() }, { SDWebImageJPEGCoder() }])
        case .png:
            DecoderHarness.run(
                data, coders: [SDWebImageImageIOCoder.shared, SDWebImagePNGCoder.shared],
                progressive: [{ SDWebImageImageIOCoder() }, { SDWebImagePNGCoder() }])
        case .gif:
            DecoderHarness.run(
                data, coders: [SDWebImageImageIOCoder.shared, SDWebImageGIFCoder.shared],
                progressive: [{ SDWebImageImageIOCoder() }])
        case .webp:
            DecoderHarness.run(data, coders: [SDWebImageWebPCoder.shared], progressive: [{ SDWebImageWebPCoder() }])
        case .sniff:
            SniffHarness.run(data)
        case .cachename:
            CacheNameHarness.run(data)
        case .http:
            HTTPHarness.shared.run(data)
        }
    }
}
