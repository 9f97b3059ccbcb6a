import Foundation

/// Finds lines in the package's own sources, so `sdport faq` can print `path:line` for the code it describes.
///
/// The package root is found from this file's compile-time path; when the binary runs somewhere without its
/// sources, only the path is printed.
enum SourceLocator {
    /// The package root (the directory holding Package.swift), if the sources are still there.
    static let packageRoot: URL? = {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // sdport
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()
        let manifest = root.appendingPathComponent("Package.swift").path
        return FileManager.default.fileExists(atPath: manifest) ? root : nil
    }()

    /// "path:line" of the first line of `file` (relative to the package root) containing `anchor`, or `file`
    /// alone when the file or the text cannot be found.
    static func reference(file: String, anchor: String) -> String {
        guard let line = line(of: anchor, in: file) else { return file }
        return "\(file):\(line)"
    }

    /// The 1-based line number of the first line of `file` containing `anchor`.
    static func line(of anchor: String, in file: String) -> Int? {
        guard let root = packageRoot,
              let text = try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8) else { return nil }
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            if line.contains(anchor) { return number }
        }
        return nil
    }
}
