import Foundation
import Synchronization

/// One measured goal: a ratio, the goal it is held to, and whether it was met. Every suite records its goals here
/// as it prints them; `sdport-bench SUITE --json` then writes one JSON object per goal (`name`, `ratio`, `goal`,
/// `met`) so a script can check the goals and compare two runs.
struct BenchmarkGoal: Sendable {
    let name: String
    let ratio: Double
    let goal: Double
    /// Whether the ratio must stay at or below the goal (a cost) rather than reach it (a speed).
    let atMost: Bool

    var met: Bool { atMost ? ratio <= goal : ratio >= goal }

    /// The goals recorded so far, in order.
    private static let recorded = Mutex<[BenchmarkGoal]>([])

    static func record(_ name: String, ratio: Double, atMost goal: Double) {
        recorded.withLock { $0.append(BenchmarkGoal(name: name, ratio: ratio, goal: goal, atMost: true)) }
    }

    static func record(_ name: String, ratio: Double, atLeast goal: Double) {
        recorded.withLock { $0.append(BenchmarkGoal(name: name, ratio: ratio, goal: goal, atMost: false)) }
    }

    static var all: [BenchmarkGoal] { recorded.withLock { $0 } }

    /// `{"name":…,"ratio":…,"goal":…,"met":…}` on one line.
    var jsonLine: String {
        let object: [String: Any] = ["name": name, "ratio": (ratio * 1000).rounded() / 1000, "goal": goal, "met": met,
                                     "direction": atMost ? "at most" : "at least"]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
