import Foundation

/// The words and data `sdport museum` prints for exhibits: one list line, the story, and the JSON form.
enum MuseumText {
    static func listLine(_ exhibit: MuseumExhibit) -> String {
        let side = exhibit.portHasBug ? "port has the bug" : "port has the fix"
        return String(format: "%2d  ", exhibit.number)
            + "\(exhibit.id)  \(exhibit.title)  [\(side); \(exhibit.upstream.status)]"
    }

    static func story(_ exhibit: MuseumExhibit) -> [String] {
        var lines = ["\(exhibit.id): \(exhibit.title)", ""]
        lines += wrap("Symptom: " + exhibit.symptom)
        let issues = exhibit.upstream.issues.map { "#\($0)" }.joined(separator: ", ")
        let prs = exhibit.upstream.pullRequests.map { "#\($0)" }.joined(separator: ", ")
        // Only issues the original's CHANGELOG or history names are listed; with none, the line says nothing of them.
        lines.append(
            "Upstream: \(issues.isEmpty ? "" : "issues \(issues); ")pull requests \(prs.isEmpty ? "none" : prs); "
                + exhibit.upstream.status)
        lines.append("")
        lines.append("The 4.4.8 lines that cause it:")
        for cite in exhibit.cause { lines += citation(cite) }
        lines.append("")
        lines += wrap("Mechanism: " + exhibit.mechanism)
        lines.append("")
        lines += wrap("Lesson: " + exhibit.lesson)
        lines.append("")
        lines.append("The later lines:")
        for cite in exhibit.fix { lines += citation(cite) }
        lines.append("")
        lines += wrap("The port: " + exhibit.port)
        lines.append(
            "Tests: \(exhibit.testClass): " + (exhibit.tests.unpatched + exhibit.tests.patched).joined(separator: ", "))
        return lines
    }

    private static func citation(_ cite: MuseumExhibit.Citation) -> [String] {
        let place =
            cite.tag == "SDPort" ? "SDPort \(cite.file):\(cite.lines)" : "\(cite.tag) \(cite.file):\(cite.lines)"
        var lines = ["  \(place)  \(cite.token)"]
        if let url = cite.url { lines.append("    \(url)") }
        return lines
    }

    private static func wrap(_ text: String) -> [String] {
        TextWrap.lines(text, width: 110)
    }

    static func json(_ exhibits: [MuseumExhibit]) throws -> String {
        try encode(exhibits)
    }

    /// The exhibit with its patch, its live run and its verification (when they were made).
    static func json(
        _ exhibit: MuseumExhibit, patch: String, live: MuseumLiveReport?,
        verified: (passed: Bool, seconds: Int)?
    ) throws -> String {
        struct Full: Encodable {
            let exhibit: MuseumExhibit
            let patch: String
            let live: MuseumLiveReport?
            let verify: Verify?
        }
        struct Verify: Encodable {
            let passed: Bool
            let seconds: Int
        }
        return try encode(
            Full(
                exhibit: exhibit, patch: patch, live: live,
                verify: verified.map { Verify(passed: $0.passed, seconds: $0.seconds) }))
    }

    private static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
