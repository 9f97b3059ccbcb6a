import Foundation
@testable import sdport
import XCTest

/// The break-it drills (`sdport drill`, `Docs/drills.json`): one per FAQ answer, each a one-line change that
/// still applies — its text occurs exactly once in its file — and names that answer's own Interview tests.
final class DrillListTests: XCTestCase {
    func test_DRILL_everyChangeAppliesExactlyOnce() throws {
        let root = CLIProcess.packageRoot
        let drills = try Drill.load(from: root)
        XCTAssertEqual(drills.map(\.faq).sorted(), Array(1...17), "one drill per FAQ answer")
        for drill in drills {
            let text = try String(contentsOf: root.appendingPathComponent(drill.file), encoding: .utf8)
            XCTAssertEqual(text.components(separatedBy: drill.find).count - 1, 1, "drill \(drill.faq): \(drill.find) in \(drill.file)")
            XCTAssertNotEqual(drill.find, drill.replace)
            XCTAssertFalse(drill.find.contains("\n") || drill.replace.contains("\n"), "drill \(drill.faq) changes one line")
            XCTAssertEqual(drill.tests, String(format: "FAQ%02d_", drill.faq), "drill \(drill.faq) is caught by its own Interview tests")
            let interview = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Tests/Interview").path)
            XCTAssertTrue(interview.contains { $0.hasPrefix(drill.tests) }, "Tests/Interview has \(drill.tests)…")
        }
    }
}
