import Foundation

/// A fresh directory under the system's temporary directory (the demo's and the FAQ probes' caches).
struct TemporaryCacheDirectory: Sendable {
    let url: URL
    var path: String { url.path }

    static func make(prefix: String) throws -> TemporaryCacheDirectory {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw SDPortFailure(
                .cacheDirectoryUnusable,
                "cannot create a temporary directory in \(url.deletingLastPathComponent().path): "
                    + CacheFactory.reason(of: error))
        }
        return TemporaryCacheDirectory(url: url)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
