import Foundation

// sdport-bench: release-mode benchmarks, one suite per layer. Not tests: they measure, they do not assert.
// Run: swift run -c release sdport-bench [coders|cache|downloader|manager|all|soak] [--json]
// --json: after the human-readable report, one JSON object per measured goal (name, ratio, goal, met) on stdout,
// each line starting with "{", so `grep '^{'` extracts them.
let suites: [(name: String, run: () throws -> Void)] = [
    ("coders", CoderBenchmarks.run),
    ("cache", CacheBenchmarks.run),
    ("downloader", DownloaderBenchmarks.run),
    ("manager", ManagerBenchmarks.run),
]
/// Not part of `all`: the soak (issue 12) checks endurance, not speed, and takes about a minute.
let extraSuites: [(name: String, run: () throws -> Void)] = [
    ("soak", SoakBenchmark.run),
]

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
