import Foundation

/// One exhibit of the bug museum, as `Museum/MUS-NN/exhibit.json` describes it: a bug of SDWebImage 4.4.8 (or one
/// the port fixed), its upstream history, the 4.4.8 lines that cause it, and the tests of its two sides.
///
/// The same data feeds `sdport museum`, chapter 12 of the walkthrough (scripts/museum-chapter.py) and the spec's
/// MUS rows, so they cannot disagree. Not a port of an original type.
struct MuseumExhibit: Codable, Sendable {
    /// A cited range of lines: `tag` is an SDWebImage tag ("4.4.8", "5.21.5") or "SDPort" for the port.
    struct Citation: Codable, Sendable {
        let tag: String
        let file: String
        let lines: String
        let token: String
        /// The line on GitHub (none for the port's own lines).
        let url: String?
    }

    struct Upstream: Codable, Sendable {
        let issues: [Int]
        let pullRequests: [Int]
        /// Where upstream stands, as every renderer prints it: "fixed in 5.18.0", or "not fixed upstream (…)".
        let status: String
        let commits: [String]
    }

    struct Tests: Codable, Sendable {
        /// Run on the port as it is (no SDPORT_MUSEUM).
        let unpatched: [String]
        /// Run with the patch applied and SDPORT_MUSEUM=patched.
        let patched: [String]
    }

    struct Anchor: Codable, Sendable {
        let file: String
        let text: String
    }

    let id: String
    let title: String
    /// "fix" (the port has 4.4.8's bug; the patch brings the later fix) or "regress" (the port has the fix; the
    /// patch puts 4.4.8's code back).
    let kind: String
    let portHasBug: Bool
    let concurrency: Bool
    let symptom: String
    let upstream: Upstream
    let cause: [Citation]
    let fix: [Citation]
    let mechanism: String
    let lesson: String
    let port: String
    /// The 4.4.8 symbol of the buggy method (`File.m -selector`).
    let original: String
    let portAnchor: Anchor
    /// The patch's file name in the exhibit's folder.
    let patch: String
    let testClass: String
    let tests: Tests

    /// "MUS-07" → 7.
    var number: Int { Int(id.dropFirst(4)) ?? 0 }

    /// The unpatched side's name: what the port as it is shows.
    var unpatchedSide: String { kind == "fix" ? "faithful (4.4.8's bug)" : "fixed (the port's fix)" }
    /// The patched side's name.
    var patchedSide: String { kind == "fix" ? "fixed (the later fix)" : "faithful (4.4.8's bug, regressed)" }

    /// The exhibits under `root/Museum`, by number.
    static func loadAll(from root: URL) throws -> [MuseumExhibit] {
        let museum = root.appendingPathComponent("Museum")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: museum.path)) ?? []
        var exhibits: [MuseumExhibit] = []
        for name in names.sorted() where name.hasPrefix("MUS-") {
            let file = museum.appendingPathComponent(name).appendingPathComponent("exhibit.json")
            do {
                exhibits.append(try JSONDecoder().decode(MuseumExhibit.self, from: Data(contentsOf: file)))
            } catch {
                throw SDPortFailure(.usage, "cannot read \(file.path): \(error.localizedDescription)")
            }
        }
        guard !exhibits.isEmpty else { throw SDPortFailure(.usage, "no exhibits in \(museum.path)") }
        return exhibits
    }

    /// The patch text.
    func patchText(root: URL) -> String {
        let url = root.appendingPathComponent("Museum").appendingPathComponent(id).appendingPathComponent(patch)
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }
}
