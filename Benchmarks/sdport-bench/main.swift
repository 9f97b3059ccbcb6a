import Benchmark
import Foundation

// sdport-bench: the release-mode benchmarks, on package-benchmark (Benchmarks/README.md). `scripts/bench.sh
// [SUITE] [--json]` runs them through `swift package benchmark` and prints each goal beside its ratio. Besides the
// runner's own arguments (what `swift package benchmark` passes), this executable answers:
//   sdport-bench goals                          the goals and the benchmarks, as JSON, for scripts/bench-report.py
//   sdport-bench downloader --timeline FILE     one pipeline run (200 images, 6 at a time) as a Chrome trace,
//                                               and where its time goes
//   sdport-bench cache-worker ...               the soak's child processes (MultiProcessSoak)
//   sdport-bench memory-case NAME               one case of the memory suite (plain, scaledown, progressive) outside
//                                               the runner: its peak and floor in kB, to study where the peak goes
let arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == "cache-worker" {
    do { try MultiProcessSoak.runWorker(Array(arguments.dropFirst())) } catch {
        FileHandle.standardError.write(Data("cache worker failed: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

if arguments.first == "memory-case", arguments.count == 2 {
    do {
        let jpeg = try MemoryBenchmark.makeLargeJPEG()
        let peakKB = try MemoryBenchmark.runCase(arguments[1], jpeg: jpeg)
        print("peak-kB \(Int(peakKB)) floor-kB \(MemoryBenchmark.floorKB(jpegByteCount: jpeg.count))")
    } catch {
        FileHandle.standardError.write(Data("memory case failed: \(error)\n".utf8))
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
