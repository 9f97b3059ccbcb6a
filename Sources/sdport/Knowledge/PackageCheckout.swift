import Foundation

/// A checkout of this package on disk, for the commands that need the sources themselves: `sdport drill N` breaks
/// a scratch copy of them, and `sdport demo` falls back to their `Fixtures/`. Found from a folder upwards (the
/// current directory by default): the first folder whose `Package.swift` declares the package "SDPort". The binary's
/// own build location is never assumed: an installed `sdport` has none.
///
/// Port addition, no SDWebImage counterpart.
enum PackageCheckout {
    /// The package root at or above `start`, or nil when `start` is not inside a checkout.
    static func find(from start: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) -> URL? {
        var folder = start.standardizedFileURL
        while true {
            if isCheckout(folder) { return folder }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return nil }
            folder = parent
        }
    }

    /// Whether `folder` holds this package's manifest.
    static func isCheckout(_ folder: URL) -> Bool {
        guard let manifest = try? String(contentsOf: folder.appendingPathComponent("Package.swift"), encoding: .utf8)
        else { return false }
        return manifest.contains("name: \"SDPort\"")
    }
}
