import Foundation

/// Finds the SDPort checkout `sdport museum` reads: the nearest directory, from the current directory upward, that
/// holds both `Package.swift` and `Museum/`.
enum MuseumCheckout {
    static func root(from start: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) -> URL? {
        var directory = start.standardizedFileURL
        while true {
            let manifest = directory.appendingPathComponent("Package.swift").path
            let museum = directory.appendingPathComponent("Museum").path
            if FileManager.default.fileExists(atPath: manifest), FileManager.default.fileExists(atPath: museum) {
                return directory
            }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { return nil }
            directory = parent
        }
    }
}
