import Benchmark
import Foundation

// sdport-bench: the release-mode benchmarks, on package-benchmark (Benchmarks/README.md). `scripts/bench.sh
// [SUITE] [--json]` runs them through `swift package benchmark` and prints each goal beside its ratio. Besides the
// runner's own arguments (what `swift package benchmark` passes), this executable answers:
//   sdport-bench goals                          the goals and the benchmarks, as JSON, for scripts/bench-report.py
//   sdport-bench downloader --timeline FILE     one pipeline run (200 images, 6 at a time) as a Chrome trace,
//                                               and where its time goes
//   sdport-bench cache-worker ...               the soak's child processes (MultiProcessSoak)
let arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == "cache-worker" {
    do { try MultiProcessSoak.runWorker(Array(arguments.dropFirst())) } catch {
        FileHandle.standardError.write(Data("cache worker failed: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

if arguments.first == "goals" {
    BenchmarkCatalog.registerAll()
    do { print(try BenchmarkCatalog.goalsJSON()) } catch {
        FileHandle.standardError.write(Data("goals: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

if arguments.first == "downloader", let flag = arguments.firstIndex(of: "--timeline") {
    guard flag + 1 < arguments.count else {
        FileHandle.standardError.write(Data("usage: sdport-bench downloader --timeline FILE.json\n".utf8))
        exit(64)
    }
    do { try PipelineTimeline.run(writingTo: arguments[flag + 1]) } catch {
        FileHandle.standardError.write(Data("timeline failed: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

await BenchmarkRunner.setupBenchmarkRunner(registerBenchmarks: BenchmarkCatalog.registerAll)
