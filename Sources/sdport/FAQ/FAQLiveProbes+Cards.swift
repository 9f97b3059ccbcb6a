import Foundation
import SDPort

/// Which probe proves which card (the cards are data, `Docs/knowledge/faq/FAQ-NN.json`; their probes are code), and
/// the probes that only read values.
extension FAQLiveProbes {
    /// The probe of FAQ-`number`; nil for a card without one.
    static func probe(forFAQ number: Int) -> (@Sendable () async throws -> String)? {
        switch number {
        case 1: return { diskDirectory() }
        case 2: return { downloaderDefaults() }
        case 3: return { fileNaming() }
        case 4: return { formatSniffing() }
        case 5: return { try await cacheTypes() }
        case 6: return { try await whatIsCached() }
        case 7: return { diskLifetime() }
        case 8: return { try await cleanupRule() }
        case 9: return { try await protocolCache() }
        case 10: return { try await urlTypes() }
        case 11: return { await ioQueue() }
        case 12: return { try await acceptHeader() }
        case 13: return { forceDecode() }
        case 14: return { await mainQueueRule() }
        case 15: return { optionBits() }
        case 16: return { try await executionOrder() }
        case 17: return { try await coalescingAndFailedURLs() }
        default: return nil
        }
    }

    /// FAQ-01: the shared cache's folder, and one made with a namespace and a directory.
    static func diskDirectory() -> String {
        let shared = SDImageCache.shared.diskCachePath
        let custom = SDImageCache(namespace: "avatars", diskCacheDirectory: "/tmp/sdport").diskCachePath
        return "SDImageCache.shared.diskCachePath = \(shared); "
            + "SDImageCache(namespace: \"avatars\", diskCacheDirectory: \"/tmp/sdport\").diskCachePath = \(custom)"
    }

    /// FAQ-03: the file name of a key with a query string, and of one without an extension.
    static func fileNaming() -> String {
        let cache = SDImageCache(namespace: "faq", diskCacheDirectory: "/tmp")
        let withQuery = "https://example.com/images/cat.png?size=large"
        let bare = "https://example.com/avatar"
        return "cachePath(forKey: \"\(withQuery)\", inPath: \"/cache\") = "
            + "\(cache.cachePath(forKey: withQuery, inPath: "/cache") ?? "nil"); "
            + "no extension: \(SDImageCache.cachedFileName(forKey: bare))"
    }

    /// FAQ-04: the format sniffed from the first bytes of a few samples.
    static func formatSniffing() -> String {
        let samples: [(String, Data)] = [
            ("FF D8 FF", Data([0xFF, 0xD8, 0xFF])),
            ("89 50 4E 47", Data([0x89, 0x50, 0x4E, 0x47])),
            ("GIF89a", Data("GIF89a".utf8)),
            ("RIFF....WEBP", Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBP".utf8)),
            ("RIFF....WAVE", Data("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8)),
            ("<svg", Data("<svg".utf8)),
        ]
        return samples.map { "\($0.0) → \(Data.sd_imageFormat(forImageData: $0.1))" }.joined(separator: ", ")
    }

    /// FAQ-07: the default age limit, and the notifications that run the cleanup.
    static func diskLifetime() -> String {
        let age = SDImageCacheConfig().maxCacheAge
        return "SDImageCacheConfig().maxCacheAge = \(Int(age)) s = \(Int(age / 86_400)) days; cleanup on "
            + "\(UIApplication.willTerminateNotification.rawValue) and "
            + "\(UIApplication.didEnterBackgroundNotification.rawValue)"
    }

    /// FAQ-15: the options' raw values, combined and tested.
    static func optionBits() -> String {
        let options: SDWebImageOptions = [.retryFailed, .refreshCached]
        return "retryFailed = \(SDWebImageOptions.retryFailed.rawValue), refreshCached = "
            + "\(SDWebImageOptions.refreshCached.rawValue), [.retryFailed, .refreshCached].rawValue = "
            + "\(options.rawValue), contains(.lowPriority) = \(options.contains(.lowPriority)), "
            + "SDWebImageDownloaderOptions.useNSURLCache = \(SDWebImageDownloaderOptions.useNSURLCache.rawValue)"
    }
}
