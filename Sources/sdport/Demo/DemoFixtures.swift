import Foundation
import SDPort

/// The images the demo serves, sorted into the ones it walks through and the bad inputs it shows failing.
struct DemoFixtures: Sendable {
    /// Images that decode, in name order.
    let good: [String]
    /// Files that are meant to fail (corrupt, truncated, empty, absurd headers), in name order.
    let bad: [String]
    /// Images left out, with the reason.
    let skipped: [(name: String, reason: String)]
    let directory: URL

    /// Name prefixes of the fixtures made to fail (see Fixtures/README.md).
    static let badPrefixes = ["corrupt", "truncated", "empty", "huge-"]
    /// Good images the demo leaves out, and why.
    static let skippedNames = [
        "large.png": "5250×3450 decodes to 72 MB; try `sdport load Fixtures/large.png --option scaleDownLargeImages`"
    ]

    /// Finds the directory (`--fixtures`, else ./Fixtures, else the Fixtures/ of the checkout around the current
    /// directory) and sorts its files.
    static func load(explicit: String?) throws -> DemoFixtures {
        let candidates: [URL]
        if let explicit {
            candidates = [URL(fileURLWithPath: explicit)]
        } else {
            candidates =
                [URL(fileURLWithPath: "Fixtures")]
                + (PackageCheckout.find().map { [$0.appendingPathComponent("Fixtures")] } ?? [])
        }
        guard let directory = candidates.map(\.standardizedFileURL).first(where: isDirectory) else {
            throw SDPortFailure(
                .demoSetupFailed,
                "no fixtures directory at \(candidates[0].path) (run from the package root or pass --fixtures DIR)")
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { !$0.hasPrefix(".") }
            .sorted()
        var good: [String] = []
        var bad: [String] = []
        var skipped: [(String, String)] = []
        for name in names {
            let path = directory.appendingPathComponent(name).path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                continue
            }
            if badPrefixes.contains(where: name.hasPrefix) {
                bad.append(name)
            } else if let reason = skippedNames[name] {
                skipped.append((name, reason))
            } else if sniffedFormat(path) != .undefined {
                good.append(name)
            }
        }
        guard !good.isEmpty else {
            throw SDPortFailure(.demoSetupFailed, "no images in \(directory.path)")
        }
        return DemoFixtures(good: good, bad: bad, skipped: skipped, directory: directory)
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    private static func sniffedFormat(_ path: String) -> SDImageFormat {
        guard let handle = FileHandle(forReadingAtPath: path) else { return .undefined }
        defer { try? handle.close() }
        return Data.sd_imageFormat(forImageData: handle.readData(ofLength: 16))
    }
}
