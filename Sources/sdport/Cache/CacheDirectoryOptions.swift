import ArgumentParser
import Foundation

/// `--cache-dir DIR`, shared by `load`, `cache` and `demo`.
struct CacheDirectoryOptions: ParsableArguments {
    @Option(
        name: .customLong("cache-dir"),
        help: ArgumentHelp(
            "The directory that holds the disk cache (the cache adds com.hackemist.SDWebImageCache.default under it).",
            discussion: "Without it: $XDG_CACHE_HOME or ~/.cache, as SDImageCache.shared uses.",
            valueName: "dir"))
    var cacheDirectory: String?

    init() {}

    /// Options as if `--cache-dir` had been given (nil: not given).
    init(cacheDirectory: String?) {
        self.cacheDirectory = cacheDirectory
    }
}
