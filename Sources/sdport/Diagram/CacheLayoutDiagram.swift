import Foundation
import SDPort

/// The cache layout, read from a real `SDImageCache` in a temporary directory after storing three images: the
/// memory cache (strong entries and the weak table, which 4.4.8's `SDMemoryCache` adds to its NSCache on iOS and
/// tvOS while `shouldUseWeakMemoryCache` is on, the default), and the disk tree, whose file names are the MD5 of
/// the key plus the extension of the key's URL path (of the key itself when it is no URL), if it has one short
/// enough for a file name (`SDImageCache.m:245-261`, `cachedFileNameForKey:`).
enum CacheLayoutDiagram {
    static let keys = [
        "https://images.example/cat.png", "https://images.example/dog.jpg?size=large",
        "https://images.example/avatar",
    ]

    /// Stores one image per key (memory and disk) and returns the first; nothing else keeps the others.
    private static func storeAll(in cache: SDImageCache) async throws -> UIImage {
        var first: UIImage?
        for key in keys {
            guard let image = UIImage.sd_image(with: SampleImage.png) else {
                throw SDPortFailure(.loadFailed, "the sample PNG does not decode")
            }
            if first == nil { first = image }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                cache.store(image, imageData: SampleImage.png, forKey: key, toDisk: true) { continuation.resume() }
            }
        }
        return first!
    }

    static func make() async throws -> DiagramFile {
        let directory = try TemporaryCacheDirectory.make(prefix: "sdport-diagram-cache")
        defer { directory.remove() }
        let cache = SDImageCache(namespace: "diagrams", diskCacheDirectory: directory.path)
        cache.config.shouldUseWeakMemoryCache = true
        let held = try await storeAll(in: cache)
        // The io queue's write blocks hold their image until the queue has released them: wait for that.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            cache.ioQueue.async { continuation.resume() }
        }
        let inMemory = keys.filter { cache.imageFromMemoryCache(forKey: $0) != nil }
        // A memory warning empties the strong entries; the weak table still finds the image the caller holds.
        NotificationCenter.default.post(name: UIApplication.didReceiveMemoryWarningNotification, object: nil)
        let afterWarning = keys.filter { cache.imageFromMemoryCache(forKey: $0) != nil }
        withExtendedLifetime(held) {}

        let root = (cache.diskCachePath as NSString).lastPathComponent
        let files = ((try? FileManager.default.subpathsOfDirectory(atPath: cache.diskCachePath)) ?? []).sorted()

        var lines = DiagramFile.header(title: "The cache layout", command: "sdport diagram cache-layout")
        lines.append(
            "Read from a real `SDImageCache` (namespace `diagrams`, weak table on, as 4.4.8's default on iOS and "
                + "tvOS) after storing three images, then after a memory warning while the caller still holds the "
                + "first one. "
                + "Disk file names are the MD5 of the key, plus the key's extension when it has one.")
        lines.append("")
        lines.append("```mermaid")
        lines.append("flowchart TB")
        lines.append("    cache[\"SDImageCache<br/>namespace diagrams\"]")
        lines.append("    cache --> memory[\"memory: memCache (AutoPurgeCache, 4.4.8's SDMemoryCache)\"]")
        lines.append(
            "    memory --> strong[\"strong entries: NSCache part, cost-limited when maxMemoryCost is set, "
                + "emptied by a memory warning (iOS, tvOS)\"]")
        lines.append("    memory --> weak[\"weak table: NSMapTable part, shouldUseWeakMemoryCache\"]")
        for (index, key) in keys.enumerated() {
            lines.append("    strong --> s\(index)[\"\(DiagramFile.escape(key))\"]")
            lines.append("    weak -.-> s\(index)")
        }
        lines.append(
            "    memory --> warned[\"after a memory warning, found in memory: \(afterWarning.count) of \(keys.count)\"]"
        )
        for key in afterWarning {
            lines.append(
                "    warned --> w\(keys.firstIndex(of: key)!)[\"\(DiagramFile.escape(key))<br/>the caller still holds it: the weak table finds it\"]"
            )
        }
        lines.append("    cache --> disk[\"disk: CACHE_DIR/\(root)/\"]")
        for (index, file) in files.enumerated() {
            let path = (cache.diskCachePath as NSString).appendingPathComponent(file)
            let key = keys.first { cache.defaultCachePath(forKey: $0) == path }
            let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
            lines.append(
                "    disk --> f\(index)[\"\(file)<br/>\(size) bytes<br/>key \(DiagramFile.escape(key ?? "?"))\"]")
        }
        lines.append("```")
        lines.append("")
        lines.append(
            "In memory after storing: \(inMemory.count) of \(keys.count) keys. After the warning: "
                + (afterWarning.isEmpty ? "none" : afterWarning.map { "`\($0)`" }.joined(separator: ", ")) + ".")
        return DiagramFile(name: "cache-layout", markdown: lines.joined(separator: "\n") + "\n")
    }
}
