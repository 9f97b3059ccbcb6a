import Foundation
import SDPortTestSupport
import XCTest

/// The house plan of `Sources/SDPort` (CONTRIBUTING.md, "Layers"): each folder may name the types of the folders
/// below it, never of one above. The test reads the sources, finds every top-level type, function and constant
/// each folder declares, and fails for a file that names one from a higher folder.
final class LayerRuleTests: XCTestCase {
    /// Bottom to top. Define and Internal hold what every layer shares; WebCache (the views) is the top.
    static let layers = ["Define", "Internal", "Platform", "Coders", "Cache", "Downloader", "Manager", "WebCache"]

    private static let sources = CLIProcess.packageRoot.appendingPathComponent("Sources/SDPort")

    /// Top-level declarations: a line starting (after modifiers) with a declaration keyword, at column 0.
    private static let declaration = try! NSRegularExpression(
        pattern:
            #"^(?:(?:public|open|internal|private|fileprivate|final|indirect|@[A-Za-z]+)\s+)*(?:class|struct|enum|protocol|typealias|actor|func|let|var)\s+([A-Za-z_][A-Za-z0-9_]*)"#,
        options: .anchorsMatchLines)

    private struct SourceFile {
        let layer: String
        let path: String
        let code: String  // comments and string literals blanked out
    }

    private func readSources() throws -> [SourceFile] {
        var files: [SourceFile] = []
        // A file belongs to the layer of its top-level folder, however deep it sits (Downloader/URLSession/ is the
        // downloader's stand-in for NSURLSession, inside the Downloader layer).
        for folder in try FileManager.default.contentsOfDirectory(atPath: Self.sources.path) {
            let directory = Self.sources.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(atPath: directory.path) else { continue }
            for case let relative as String in walker where relative.hasSuffix(".swift") {
                let text = try String(contentsOf: directory.appendingPathComponent(relative), encoding: .utf8)
                files.append(SourceFile(layer: folder, path: "\(folder)/\(relative)", code: Self.codeOnly(text)))
            }
        }
        return files
    }

    private static func codeOnly(_ text: String) -> String {
        var code = text.replacingOccurrences(of: #"//[^\n]*"#, with: "", options: .regularExpression)
        code = code.replacingOccurrences(of: #""(?:\\.|[^"\\\n])*""#, with: "\"\"", options: .regularExpression)
        return code
    }

    /// Every top-level name each layer declares, then every file that names one from a higher layer.
    private static func violations(in files: [SourceFile]) -> (declared: Int, found: [String]) {
        var owner: [String: String] = [:]
        for file in files {
            let range = NSRange(file.code.startIndex..., in: file.code)
            for match in declaration.matches(in: file.code, range: range) {
                if let name = Range(match.range(at: 1), in: file.code).map({ String(file.code[$0]) }),
                    owner[name] == nil
                {
                    owner[name] = file.layer
                }
            }
        }
        var found: [String] = []
        for file in files {
            guard let level = layers.firstIndex(of: file.layer) else { continue }
            let higher = owner.filter { _, layer in (layers.firstIndex(of: layer) ?? 0) > level }
            for (name, layer) in higher.sorted(by: { $0.key < $1.key })
            where file.code.range(of: #"\b\#(name)\b"#, options: .regularExpression) != nil {
                found.append("\(file.path) names \(name) (\(layer))")
            }
        }
        return (owner.count, found)
    }

    /// House rule (no parity ID): every folder of `Sources/SDPort` is a known layer, and no file names a type,
    /// function or constant of a layer above its own.
    func test_LAYERS_noFileNamesATypeOfAHigherLayer() throws {
        let files = try readSources()
        for layer in Set(files.map(\.layer)) {
            XCTAssertTrue(
                Self.layers.contains(layer),
                "Sources/SDPort/\(layer) is not in the layer list; add it to CONTRIBUTING and this test")
        }
        let result = Self.violations(in: files)
        XCTAssertGreaterThan(result.declared, 100, "the declarations were found")
        XCTAssertEqual(result.found, [], "a layer may only name the layers below it")
    }

    /// The check can fail: a Cache file naming the manager is caught; a name in a comment or a string is not.
    func test_LAYERS_theCheckCatchesAnUpwardName() {
        let manager = SourceFile(
            layer: "Manager", path: "Manager/M.swift", code: Self.codeOnly("public final class SDWebImageManager {}\n"))
        let upward = SourceFile(
            layer: "Cache", path: "Cache/C.swift",
            code: Self.codeOnly("func f() { _ = SDWebImageManager.self }\n"))
        let mentionOnly = SourceFile(
            layer: "Cache", path: "Cache/D.swift",
            code: Self.codeOnly("// SDWebImageManager\nlet s = \"SDWebImageManager\"\n"))
        XCTAssertEqual(
            Self.violations(in: [manager, upward, mentionOnly]).found,
            ["Cache/C.swift names SDWebImageManager (Manager)"])
        let downward = SourceFile(
            layer: "WebCache", path: "WebCache/V.swift", code: Self.codeOnly("let m = SDWebImageManager.self\n"))
        XCTAssertEqual(Self.violations(in: [manager, downward]).found, [], "naming a lower layer is allowed")
    }
}
