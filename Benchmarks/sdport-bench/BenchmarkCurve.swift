import Foundation
import Synchronization

/// A scaling curve of the `scale` suite: one point per size, each the median of a benchmark of that size divided
/// by what the report should show per (an operation, a file). `scripts/bench-report.py` fits a power law to it and
/// `scripts/bench-plot.py` draws it as an SVG in Benchmarks/.
struct BenchmarkCurve: Sendable, Encodable {
    struct Point: Sendable, Encodable {
        let x: Double
        let term: BenchmarkGoal.Term
    }

    let name: String
    let title: String
    let xLabel: String
    let yLabel: String
    /// What a term's value (microseconds for times) is multiplied by to be in `yLabel`'s unit.
    let yScale: Double
    let points: [Point]
    /// Whether a power law is fitted and drawn (a shape with a goal); the pipeline's curve is not one.
    let fitted: Bool

    private static let defined = Mutex<[BenchmarkCurve]>([])

    static var all: [BenchmarkCurve] { defined.withLock { $0 } }

    static func define(_ curve: BenchmarkCurve) {
        defined.withLock { $0.append(curve) }
    }
}
