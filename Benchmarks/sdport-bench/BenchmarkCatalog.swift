import Benchmark
import Foundation
import Synchronization

/// Registers the suites' benchmarks with package-benchmark and keeps what the report needs beside its export: how
/// many operations one iteration does (to print time and mallocs per operation) and which suite each belongs to.
/// Names are "suite.what": `scripts/bench.sh SUITE` runs the benchmarks whose name starts with "SUITE.".
enum BenchmarkCatalog {
    struct Entry: Sendable, Encodable {
        let name: String
        /// Operations in one iteration (1000 memory-cache sets, one pipeline of 200 images: 1).
        let operations: Int
        /// Whether the report prints mallocs per operation for it.
        let reportsMallocs: Bool
    }

    private static let entries = Mutex<[Entry]>([])

    static var all: [Entry] { entries.withLock { $0 } }

    /// Every benchmark measures wall time and counts mallocs (package-benchmark's CPU metric counts 10 ms clock
    /// ticks; the downloader records its own, `cpu-us`).
    static let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal]

    /// Registers `name`: `body` runs once per iteration; `operations` says how many operations that is.
    static func register(
        _ name: String, operations: Int = 1, reportsMallocs: Bool = false, iterations: Int,
        warmup: Int = 1, seconds: Int = 10, extraMetrics: [BenchmarkMetric] = [],
        setup: (() async throws -> Void)? = nil, teardown: (() -> Void)? = nil,
        _ body: @escaping (Benchmark) throws -> Void
    ) {
        entries.withLock { $0.append(Entry(name: name, operations: operations, reportsMallocs: reportsMallocs)) }
        // Nanoseconds: the sample export then holds every iteration's raw figure, which the report reads.
        let configuration = Benchmark.Configuration(
            metrics: metrics + extraMetrics, timeUnits: .nanoseconds, warmupIterations: warmup,
            maxDuration: .seconds(seconds),
            maxIterations: iterations, setup: setup, teardown: teardown.map { hook in { hook() } })
        Benchmark(name, configuration: configuration) { benchmark in
            do { try body(benchmark) } catch { benchmark.error("\(name): \(error)") }
        }
    }

    /// Every suite, in the order `all` runs them.
    static let suites: [(name: String, register: @Sendable () -> Void)] = [
        ("coders", CoderBenchmarks.register),
        ("cache", CacheBenchmarks.register),
        ("downloader", DownloaderBenchmarks.register),
        ("manager", ManagerBenchmarks.register),
        ("memory", MemoryBenchmark.register),
        ("soak", SoakBenchmark.register),
        ("scale", ScaleBenchmarks.register),
    ]

    static func registerAll() {
        for suite in suites { suite.register() }
    }

    /// The goals and the benchmarks, as one JSON object (`sdport-bench goals`). Throws when a goal or a curve
    /// reads a benchmark that is not registered, or a goal a curve that is not defined (CI runs it for that).
    static func goalsJSON() throws -> String {
        let names = Set(all.map(\.name))
        let curves = Set(BenchmarkCurve.all.map(\.name))
        let goalTerms: [BenchmarkGoal.Term] = BenchmarkGoal.all.flatMap { $0.numerator + $0.denominator }
        let curveTerms: [BenchmarkGoal.Term] = BenchmarkCurve.all.flatMap { $0.points.map(\.term) }
        let breakdownTerms: [BenchmarkGoal.Term] = BenchmarkBreakdown.all.flatMap {
            $0.total + $0.parts.flatMap(\.terms)
        }
        let terms = goalTerms + curveTerms + breakdownTerms
        for term in terms {
            if let benchmark = term.benchmark, !names.contains(benchmark) {
                throw DownloaderBenchmarks.BenchmarkError.failed(
                    "a goal or curve reads \(benchmark), which is not registered")
            }
        }
        for goal in BenchmarkGoal.all {
            if let curve = goal.exponentOf, !curves.contains(curve) {
                throw DownloaderBenchmarks.BenchmarkError.failed(
                    "\(goal.name) fits curve \(curve), which is not defined")
            }
        }
        struct Document: Encodable {
            let goals: [BenchmarkGoal]
            let curves: [BenchmarkCurve]
            let breakdowns: [BenchmarkBreakdown]
            let benchmarks: [Entry]
            let cores: Int
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(
            Document(
                goals: BenchmarkGoal.all, curves: BenchmarkCurve.all, breakdowns: BenchmarkBreakdown.all,
                benchmarks: all,
                cores: ProcessInfo.processInfo.activeProcessorCount))
        return String(decoding: data, as: UTF8.self)
    }
}
