import Foundation
import Synchronization

/// Where one benchmark's time goes: its wall time split into parts, each a sum of terms like a goal's (a factor
/// times the median of one metric of one benchmark of the same run; a negative factor subtracts). The parts add up
/// to the total by construction: the last part is what the others leave. `sdport-bench goals` prints the
/// breakdowns beside the goals, and `scripts/bench-report.py` prints each part in milliseconds and as a share.
struct BenchmarkBreakdown: Sendable, Encodable {
    struct Part: Sendable, Encodable {
        let label: String
        let terms: [BenchmarkGoal.Term]
    }

    let name: String
    let total: [BenchmarkGoal.Term]
    let parts: [Part]

    /// The breakdowns defined so far, in order.
    private static let defined = Mutex<[BenchmarkBreakdown]>([])

    static var all: [BenchmarkBreakdown] { defined.withLock { $0 } }

    static func define(_ name: String, total: [BenchmarkGoal.Term], parts: [(String, [BenchmarkGoal.Term])]) {
        defined.withLock {
            $0.append(BenchmarkBreakdown(name: name, total: total, parts: parts.map { Part(label: $0.0, terms: $0.1) }))
        }
    }
}
