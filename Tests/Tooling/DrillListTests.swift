import Foundation
import SDPortTestSupport
import XCTest

@testable import sdport

/// The break-it drills (`sdport drill`; each the `drill` of its card in `Docs/knowledge/faq/`): one per FAQ answer,
/// each a one-line change that still applies — its text occurs exactly once in its file — and names that answer's own
/// Interview tests.
final class DrillListTests: XCTestCase {
    func test_DRILL_everyChangeAppliesExactlyOnce() throws {
        let root = CLIProcess.packageRoot
        let drills = try Knowledge.load().faq.compactMap(\.drill)
        XCTAssertEqual(drills.map(\.faq).sorted(), Array(1...17), "one drill per FAQ answer")
        for drill in drills {
            let text = try String(contentsOf: root.appendingPathComponent(drill.file), encoding: .utf8)
            XCTAssertEqual(
                text.components(separatedBy: drill.find).count - 1, 1,
                "drill \(drill.faq): \(drill.find) in \(drill.file)")
            XCTAssertNotEqual(drill.find, drill.replace)
            XCTAssertFalse(
                drill.find.contains("\n") || drill.replace.contains("\n"), "drill \(drill.faq) changes one line")
            XCTAssertEqual(
                drill.tests, String(format: "FAQ%02d_", drill.faq),
                "drill \(drill.faq) is caught by its own Interview tests")
            let interview = try FileManager.default.contentsOfDirectory(
                atPath: root.appendingPathComponent("Tests/Interview").path)
            XCTAssertTrue(interview.contains { $0.hasPrefix(drill.tests) }, "Tests/Interview has \(drill.tests)…")
        }
    }

    /// At least 8 of the 17 drills break how something works, not a value; every drill asks for a prediction
    /// and names the failure to expect (a test of its own FAQ and its message); FAQ-17's breaks the 404 rule.
    func test_DRILL_mechanismsPredictionsAndExpectedFailures() throws {
        let drills = try Knowledge.load().faq.compactMap(\.drill)
        XCTAssertGreaterThanOrEqual(
            drills.filter { $0.kind == "mechanism" }.count, 8, "at least 8 drills break a mechanism")
        for drill in drills {
            XCTAssertTrue(["mechanism", "constant"].contains(drill.kind ?? ""), "drill \(drill.faq): kind")
            XCTAssertTrue(drill.predict?.hasSuffix("?") ?? false, "drill \(drill.faq) asks a question to predict")
            XCTAssertTrue(
                drill.expect?.contains("test_" + drill.tests) ?? false, "drill \(drill.faq) names the failing test")
        }
        let drill17 = try XCTUnwrap(drills.first { $0.faq == 17 })
        XCTAssertTrue(
            drill17.find.contains("URLError.cancelled") && !drill17.replace.contains("URLError.cancelled"),
            "FAQ-17's drill lists the cancelled error, which is how a 404 ends in 4.4.8")
        XCTAssertTrue(drill17.expect?.contains("test_FAQ17_a404IsNotBlacklistedIn448") ?? false)
    }
}
