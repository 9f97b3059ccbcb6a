import Foundation
import SDPort

/// The two passes of `deleteOldFiles` (`SDImageCache.m:645-737`), observed on a real cache: six files of one size,
/// two older than `maxCacheAge` (7 days), four younger. Run once with `maxCacheSize` 0 (pass 1 only), then on a
/// fresh copy with `maxCacheSize` = three files' size on disk (pass 1, then pass 2: oldest first until the files
/// left take less than half of it). What each run deleted is read back from the directory.
enum CleanupDiagram {
    /// The files' keys and their ages in days.
    static let files: [(key: String, days: Double)] = [
        ("https://images.example/cleanup-a.png", 10), ("https://images.example/cleanup-b.png", 9),
        ("https://images.example/cleanup-c.png", 4), ("https://images.example/cleanup-d.png", 3),
        ("https://images.example/cleanup-e.png", 2), ("https://images.example/cleanup-f.png", 1),
    ]

    static func make() async throws -> DiagramFile {
        let onlyExpired = try await survivors(maxCacheSizeInFiles: 0)
        let both = try await survivors(maxCacheSizeInFiles: 3)
        var lines = DiagramFile.header(title: "The two cleanup passes", command: "sdport diagram cleanup")
        lines.append(
            "`deleteOldFiles` on a real cache: six files of the same size, `maxCacheAge` 7 days, "
                + "`maxCacheSize` three files' size on disk. Pass 1 deletes every file older than `maxCacheAge` "
                + "(by modification date, the default `diskCacheExpireType`); pass 2 runs only when the files "
                + "left take more than `maxCacheSize`, and deletes the oldest first until they take less than "
                + "half of it.")
        lines.append("")
        lines.append("```mermaid")
        lines.append("flowchart LR")
        lines.append("    pass1[\"pass 1: older than maxCacheAge, deleted\"]")
        lines.append("    pass2[\"pass 2: over maxCacheSize, oldest first, deleted until under maxCacheSize / 2\"]")
        lines.append("    kept[\"kept\"]")
        for (index, file) in files.enumerated() {
            let name = DiagramFile.escape(SDImageCache.cachedFileName(forKey: file.key))
            let target = !onlyExpired.contains(file.key) ? "pass1" : !both.contains(file.key) ? "pass2" : "kept"
            lines.append(
                "    file\(index)[\"\(name)<br/>\(Int(file.days)) day\(file.days == 1 ? "" : "s") old\"] --> \(target)")
        }
        lines.append("```")
        return DiagramFile(name: "cleanup", markdown: lines.joined(separator: "\n") + "\n")
    }

    /// Writes the six files into a fresh cache, ages them, runs `deleteOldFiles` and returns the keys left.
    private static func survivors(maxCacheSizeInFiles: UInt) async throws -> [String] {
        let directory = try TemporaryCacheDirectory.make(prefix: "sdport-diagram-cleanup")
        defer { directory.remove() }
        let cache = SDImageCache(namespace: "diagrams", diskCacheDirectory: directory.path)
        cache.config.maxCacheAge = 7 * 24 * 3600
        var allocated: UInt = 0
        for file in files {
            cache.storeImageData(toDisk: SampleImage.png, forKey: file.key)
            guard let path = cache.defaultCachePath(forKey: file.key) else { continue }
            let date = Date(timeIntervalSinceNow: -file.days * 24 * 3600)
            try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
            var info = stat()
            if stat(path, &info) == 0 { allocated = UInt(info.st_blocks) * 512 }
        }
        cache.config.maxCacheSize = maxCacheSizeInFiles * allocated
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            cache.deleteOldFiles { continuation.resume() }
        }
        return files.map(\.key).filter { key in
            cache.defaultCachePath(forKey: key).map { FileManager.default.fileExists(atPath: $0) } ?? false
        }
    }
}
