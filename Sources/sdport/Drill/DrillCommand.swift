import ArgumentParser
import Foundation

/// `sdport drill [N]`: break-it drills. Without N, lists the 17 drills (from the cards: no checkout needed); with N,
/// explains the rule of FAQ-N, applies its one-line change to a scratch copy of a checkout of the package (the one
/// around the current directory, or `--package-path`), runs that answer's Interview tests on the copy and shows them
/// failing with the assertion that names the rule, then restores the copy. Without a checkout it says so and exits
/// with `SDPortExitCode.missingFiles`.
struct DrillCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drill",
        abstract: "Break one rule of an FAQ answer in a scratch copy and watch its Interview tests catch it.",
        discussion: "Running a drill needs a checkout of the package (run it inside one, or pass --package-path): "
            + "it breaks a scratch copy of those sources. The first drill builds the scratch copy (several minutes); "
            + "later ones rebuild only what changed.")

    @Argument(help: "The FAQ answer to break (1 to 17); none lists the drills.")
    var number: Int?

    @Option(help: "The checkout to copy and break (default: the one around the current directory).")
    var packagePath: String?

    func run() async throws {
        let drills = try Knowledge.load().faq.compactMap(\.drill)
        guard let number else {
            for drill in drills {
                Console.out(String(format: "%2d  ", drill.faq) + drill.rule + (drill.kind.map { "  [\($0)]" } ?? ""))
                Console.out("    break: \(drill.file): \(drill.find)  →  \(drill.replace)")
            }
            Console.out(
                "Run `sdport drill N` to break one and watch its Interview tests (\(drills.first?.tests ?? "FAQnn_")…) fail."
            )
            return
        }
        guard let drill = drills.first(where: { $0.faq == number }) else {
            throw SDPortFailure(.usage, "there is no drill \(number); pick 1 to \(drills.count)")
        }
        let root = try checkout()
        let caught = try await Self.run(drill, root: root)
        if !caught {
            throw SDPortFailure(.loadFailed, "drill \(number) was NOT caught: its tests passed with the rule broken")
        }
    }

    /// The checkout to break a copy of: `--package-path`, else the one around the current directory.
    private func checkout() throws -> URL {
        if let packagePath {
            let folder = URL(fileURLWithPath: packagePath)
            guard PackageCheckout.isCheckout(folder) else {
                throw SDPortFailure(
                    .missingFiles,
                    "\(folder.path) is not a checkout of SDPort (no Package.swift of the "
                        + "package SDPort there)")
            }
            return folder.standardizedFileURL
        }
        guard let root = PackageCheckout.find() else {
            throw SDPortFailure(
                .missingFiles,
                "a drill breaks a scratch copy of SDPort's sources, and no checkout "
                    + "is around \(FileManager.default.currentDirectoryPath): run it inside a checkout, or pass "
                    + "--package-path DIR (`sdport drill` without a number lists the drills anywhere)")
        }
        return root
    }

    /// Applies `drill` to a fresh scratch copy, runs its tests there, restores the copy. Returns whether the tests
    /// failed (the drill was caught).
    static func run(_ drill: Drill, root: URL) async throws -> Bool {
        let started = Date()
        Console.out("FAQ-\(String(format: "%02d", drill.faq)): \(drill.rule)")
        if let predict = drill.predict {
            // The prediction comes first: say what will break before seeing it.
            Console.out("  Predict: \(predict)")
            if isatty(STDIN_FILENO) != 0 {
                Console.out("  (write your prediction down, then press Return)")
                _ = readLine()
            }
        }
        let scratch = DrillScratchCopy(packageRoot: root)
        Console.out("  refreshing the scratch copy in \(scratch.copy.path)")
        try scratch.refresh()
        let target = scratch.copy.appendingPathComponent(drill.file)
        let original = try String(contentsOf: target, encoding: .utf8)
        guard let broken = drill.applied(to: original) else {
            throw SDPortFailure(.usage, "drill \(drill.faq): the text to change is not in \(drill.file) exactly once")
        }
        Console.out("  breaking \(drill.file):")
        Console.out("    - \(drill.find)")
        Console.out("    + \(drill.replace)")
        try broken.write(to: target, atomically: true, encoding: .utf8)
        defer { try? original.write(to: target, atomically: true, encoding: .utf8) }
        Console.out(
            "  building and running `swift test --filter \(drill.tests)` on the copy (the first build takes minutes)…")
        let (status, failures) = try runTests(drill.tests, scratch: scratch)
        for line in failures.prefix(8) { Console.out("    " + line) }
        let caught = status != 0 && !failures.isEmpty
        Console.out(
            caught
                ? "  caught: the Interview tests failed, as they must. The copy is restored."
                : "  NOT caught (exit \(status)). The copy is restored.")
        if let expect = drill.expect { Console.out("  Expected: \(expect)") }
        let elapsed = Date().timeIntervalSince(started)
        let (first, isFirst) = scratch.recordDuration(elapsed)
        Console.out(
            String(format: "  took %.0f s", elapsed)
                + (isFirst
                    ? " (the first drill on this scratch copy: it built everything; later drills rebuild only what changed)"
                    : String(format: "; the first drill on this copy took %.0f s", first)))
        return caught
    }

    /// Runs the filtered tests in the copy, printing build progress; returns the exit status and the XCTest
    /// failure lines (`error: … : XCTAssert…`).
    private static func runTests(_ filter: String, scratch: DrillScratchCopy) throws -> (Int32, [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swift", "test", "--disable-swift-testing", "--package-path", scratch.copy.path,
            "--scratch-path", scratch.scratchPath.path, "--filter", filter,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        var failures: [String] = []
        var pending = Data()
        var shownTenth = -1
        var shownTotal = 0
        while true {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                if line.contains(": error: "), line.contains("XCT") {
                    // From the file name on ("FAQ08_CleanupRuleTests.swift:42: error: …"): the message may hold "/".
                    if let swift = line.range(of: ".swift:"), let slash = line[..<swift.lowerBound].lastIndex(of: "/") {
                        failures.append(String(line[line.index(after: slash)...]))
                    } else {
                        failures.append(line)
                    }
                } else if let (done, total) = buildStep(line), total > 0,
                    total != shownTotal || done * 10 / total > shownTenth
                {
                    // Progress: one line per tenth of each build plan (SwiftPM plans more than once).
                    shownTotal = total
                    shownTenth = done * 10 / total
                    Console.out("    building \(done)/\(total)")
                } else if line.hasPrefix("Build complete") || line.contains("Executed") {
                    Console.out("    " + line.trimmingCharacters(in: .whitespaces))
                }
            }
        }
        process.waitUntilExit()
        return (process.terminationStatus, failures)
    }

    /// "[12/340] Compiling …" → (12, 340).
    private static func buildStep(_ line: String) -> (Int, Int)? {
        guard line.hasPrefix("["), let end = line.firstIndex(of: "]") else { return nil }
        let parts = line[line.index(after: line.startIndex)..<end].split(separator: "/")
        guard parts.count == 2, let done = Int(parts[0]), let total = Int(parts[1]) else { return nil }
        return (done, total)
    }
}
