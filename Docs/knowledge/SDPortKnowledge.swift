import Foundation

/// Where the project's facts are at run time: this folder (`Docs/knowledge`), which SwiftPM copies into the
/// resource bundle `SDPort_SDPortKnowledge.resources` beside the binaries it builds. `sdport` reads its FAQ cards,
/// myths, parity anchors and the original's line tables from there, so a copy of the binary with that folder beside
/// it works without a checkout. The scripts read the same files in place (`scripts/knowledge.py`).
///
/// Port addition, no SDWebImage counterpart.
public enum SDPortKnowledge {
    /// The bundle's name: SwiftPM's `<package>_<target>.resources`.
    public static let bundleName = "SDPort_SDPortKnowledge.resources"

    /// The folders searched, in order: the one of the running executable (Foundation resolves a symlinked binary to
    /// its real place, where SwiftPM put the bundle), then the one the command was called through.
    public static var candidates: [URL] {
        var folders = [Bundle.main.bundleURL]
        if let called = CommandLine.arguments.first, called.contains("/") {
            folders.append(URL(fileURLWithPath: called).deletingLastPathComponent())
        }
        return folders.map { $0.appendingPathComponent(bundleName).standardizedFileURL }
    }

    /// The bundle's folder (holding `index.json`); throws, naming where it looked, when there is none: a binary
    /// copied without its bundle. Nothing falls back to the sources the binary was built from.
    public static func directory() throws -> URL {
        let files = FileManager.default
        if let found = candidates.first(where: { files.fileExists(atPath: $0.appendingPathComponent("index.json").path) }) {
            return found
        }
        throw CocoaError(.fileReadNoSuchFile, userInfo: [
            NSLocalizedDescriptionKey: "sdport's knowledge bundle is missing: no \(bundleName) (from Docs/knowledge) in "
                + candidates.map { $0.deletingLastPathComponent().path }.joined(separator: " or ")
                + "; install it beside the binary (see `swift build --show-bin-path`)",
        ])
    }

    /// The bytes of `path` inside the bundle ("faq/FAQ-01.json", "original-lines.tsv").
    public static func data(_ path: String) throws -> Data {
        try Data(contentsOf: directory().appendingPathComponent(path))
    }
}
