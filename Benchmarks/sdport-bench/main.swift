import Foundation

// sdport-bench: release-mode benchmarks, one suite per layer. Not tests: they measure, they do not assert.
// Run: swift run -c release sdport-bench [coders|cache|downloader|manager|all|soak|memory] [--json]
// --json: after the human-readable report, one JSON object per measured goal (name, ratio, goal, met) on stdout,
// each line starting with "{", so `grep '^{'` extracts them.
let suites: [(name: String, run: () throws -> Void)] = [
    ("coders", CoderBenchmarks.run),
    ("cache", CacheBenchmarks.run),
    ("downloader", DownloaderBenchmarks.run),
    ("manager", ManagerBenchmarks.run),
]
/// Not part of `all`: the soak checks endurance, not speed; `memory` measures peak resident memory, each
/// case in a child process (`memory-case`).
let extraSuites: [(name: String, run: () throws -> Void)] = [
    ("soak", SoakBenchmark.run),
    ("memory", MemoryBenchmark.run),
]

if CommandLine.arguments.count > 2, CommandLine.arguments[1] == "cache-worker" {
    do { try MultiProcessSoak.runWorker(Array(CommandLine.arguments.dropFirst(2))) } catch {
        FileHandle.standardError.write(Data("cache worker failed: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "memory-case" {
    do { try MemoryBenchmark.runCase(CommandLine.arguments[2], path: CommandLine.arguments[3]) } catch {
        FileHandle.standardError.write(Data("memory case failed: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

let arguments = CommandLine.arguments.dropFirst()
let writesJSON = arguments.contains("--json")
let requested = arguments.first { $0 != "--json" } ?? "all"
let chosen = suites.filter { requested == "all" || $0.name == requested } + extraSuites.filter { $0.name == requested }
if chosen.isEmpty {
    FileHandle.standardError.write(Data("unknown suite \(requested); choose \((suites + extraSuites).map(\.name).joined(separator: ", ")) or all\n".utf8))
    exit(64)
}
for suite in chosen {
    print("== \(suite.name) ==")
    do { try suite.run() } catch { print("\(suite.name) failed: \(error)"); exit(1) }
}
if writesJSON {
    for goal in BenchmarkGoal.all { print(goal.jsonLine) }
}
