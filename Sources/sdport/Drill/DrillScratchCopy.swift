import Foundation

/// The scratch copy of the package a drill breaks: `<package>/.build-drill/package`, refreshed from the package's
/// sources before each drill (everything but `.build*` and `.git`), and built in `<package>/.build-drill/build`, so
/// only the first drill pays for a full build. The package itself is never changed.
struct DrillScratchCopy {
    let packageRoot: URL
    var base: URL { packageRoot.appendingPathComponent(".build-drill") }
    var copy: URL { base.appendingPathComponent("package") }
    var scratchPath: URL { base.appendingPathComponent("build") }

    /// Makes the copy match the package again (files are copied only when they differ, so the build stays warm).
    func refresh() throws {
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        try mirror(packageRoot, into: copy, isRoot: true)
    }

    private func mirror(_ source: URL, into destination: URL, isRoot: Bool) throws {
        let files = FileManager.default
        let names = try files.contentsOfDirectory(atPath: source.path)
        for name in names {
            if isRoot && (name.hasPrefix(".build") || name == ".git" || name == "Package.resolved") { continue }
            let from = source.appendingPathComponent(name)
            let to = destination.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard files.fileExists(atPath: from.path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                try files.createDirectory(at: to, withIntermediateDirectories: true)
                try mirror(from, into: to, isRoot: false)
            } else if files.contents(atPath: from.path) != files.contents(atPath: to.path) {
                if files.fileExists(atPath: to.path) { try files.removeItem(at: to) }
                try files.copyItem(at: from, to: to)
            }
        }
    }

    /// Where the first drill's duration is kept, so a later drill can print both.
    var timings: URL { base.appendingPathComponent("first-drill-seconds") }

    /// Records `seconds` as the first drill's duration when none is recorded yet; returns the first drill's
    /// duration and whether this was it.
    func recordDuration(_ seconds: TimeInterval) -> (first: TimeInterval, isFirst: Bool) {
        if let text = try? String(contentsOf: timings, encoding: .utf8),
            let first = TimeInterval(text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            return (first, false)
        }
        try? String(format: "%.1f", seconds).write(to: timings, atomically: true, encoding: .utf8)
        return (seconds, true)
    }
}
