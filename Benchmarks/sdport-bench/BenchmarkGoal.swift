import Benchmark
import Foundation
import Synchronization

/// One goal of the benchmarks: a ratio of two sums of measured figures (each the median of one metric of one
/// benchmark of the same `swift package benchmark` run, times a factor), or a threshold on one figure (the
/// denominator left empty). The goals are defined here beside the benchmarks they read; `sdport-bench goals`
/// prints them as JSON, and `scripts/bench-report.py` computes each ratio from package-benchmark's export
/// and prints it beside its goal (package-benchmark's own thresholds compare one benchmark with a baseline, not
/// two benchmarks with each other).
struct BenchmarkGoal: Sendable, Encodable {
    /// One figure: `factor` × the median of `metric` of `benchmark`; a nil benchmark makes the term the constant
    /// `factor`.
    struct Term: Sendable, Encodable {
        let benchmark: String?
        let metric: String
        let factor: Double
    }

    let name: String
    let goal: Double
    /// "at most" (a cost) or "at least" (a speed-up).
    let direction: String
    let numerator: [Term]
    let denominator: [Term]
    /// What the ratio compares, printed beside it.
    let note: String
    /// For a goal on a curve's shape: the curve (`BenchmarkCurve`) whose fitted exponent is the "ratio"; then
    /// the numerator and the denominator are empty.
    var exponentOf: String? = nil

    /// The goals defined so far, in order.
    private static let defined = Mutex<[BenchmarkGoal]>([])

    static var all: [BenchmarkGoal] { defined.withLock { $0 } }

    static func atMost(_ name: String, _ goal: Double, _ numerator: [Term], over denominator: [Term] = [], note: String)
    {
        defined.withLock {
            $0.append(
                BenchmarkGoal(
                    name: name, goal: goal, direction: "at most", numerator: numerator,
                    denominator: denominator, note: note))
        }
    }

    /// A goal on a ratio taken within each iteration of `benchmark`, its two sides a second apart so that a drift of
    /// the machine's speed moves both: the benchmark records it with `recordRatio` (in thousandths, custom metrics
    /// being integers) and the goal reads its median.
    static func pairedAtMost(_ name: String, _ goal: Double, benchmark: String, metric: BenchmarkMetric, note: String) {
        atMost(name, goal, [custom(benchmark, metric.rawDescription, 0.001)], over: [constant(1)], note: note)
    }

    /// Runs `body` as the measured part of an iteration (package-benchmark times that part) and returns its wall
    /// time in microseconds, the numerator of a paired ratio (package-benchmark does not expose its own figure).
    static func measuredWallMicroseconds(_ benchmark: Benchmark, _ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        benchmark.startMeasurement()
        try body()
        benchmark.stopMeasurement()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
    }

    /// The wall time of `body` in microseconds: the unmeasured side of a paired ratio, run in the same iteration.
    static func wallMicroseconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
    }

    /// Records one iteration's `numerator / denominator` for a `pairedAtMost` goal.
    static func recordRatio(
        _ benchmark: Benchmark, _ metric: BenchmarkMetric, _ numerator: Double, over denominator: Double
    ) {
        benchmark.measurement(metric, Int((1000 * numerator / denominator).rounded()))
    }

    /// A goal on the exponent `k` of the power law `y = c·xᵏ` fitted to `curve` (least squares on the logarithms).
    static func exponentAtMost(_ name: String, _ goal: Double, of curve: String, note: String) {
        defined.withLock {
            $0.append(
                BenchmarkGoal(
                    name: name, goal: goal, direction: "at most", numerator: [], denominator: [],
                    note: note, exponentOf: curve))
        }
    }

    static func atLeast(_ name: String, _ goal: Double, _ numerator: [Term], over denominator: [Term], note: String) {
        defined.withLock {
            $0.append(
                BenchmarkGoal(
                    name: name, goal: goal, direction: "at least", numerator: numerator,
                    denominator: denominator, note: note))
        }
    }
}

/// Shorthands for the terms of a goal.
func wall(_ benchmark: String, _ factor: Double = 1) -> BenchmarkGoal.Term {
    .init(benchmark: benchmark, metric: "wall", factor: factor)
}
func cpu(_ benchmark: String, _ factor: Double = 1) -> BenchmarkGoal.Term {
    .init(benchmark: benchmark, metric: "cpu", factor: factor)
}
func custom(_ benchmark: String, _ metric: String, _ factor: Double = 1) -> BenchmarkGoal.Term {
    .init(benchmark: benchmark, metric: metric, factor: factor)
}
func constant(_ value: Double) -> BenchmarkGoal.Term { .init(benchmark: nil, metric: "constant", factor: value) }
