import Foundation

/// Runs an exhibit's unpatched tests with `swift test --filter` in the checkout, for the exhibits `sdport museum`
/// cannot show in-process (they need the tests' gates: a gated operation class, a blocking coder, main-actor views).
/// Prints each test's result and every assertion message.
enum MuseumTestRun {
    static func run(_ exhibit: MuseumExhibit, root: URL, scratchPath: String?) throws -> MuseumLiveReport {
        let filter = "MuseumTests\\.\(exhibit.testClass)/"
        var arguments = ["swift", "test", "--disable-swift-testing", "--package-path", root.path, "--filter", filter]
        if let scratchPath { arguments += ["--scratch-path", scratchPath] }
        let command = arguments.joined(separator: " ")
        Console.out("  running its tests in the checkout (builds the tests first; the first time takes minutes):")
        Console.out("  $ \(command)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "SDPORT_MUSEUM")  // the port as it is
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do {
            try process.run()
        } catch {
            throw SDPortFailure(.loadFailed, "cannot run swift test: \(error.localizedDescription)")
        }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var lines: [String] = []
        var passed = 0
        for line in output.split(separator: "\n").map(String.init) {
            if line.hasPrefix("Test Case '"), line.contains("' passed") || line.contains("' failed") {
                lines.append(
                    line.replacingOccurrences(of: "Test Case '", with: "").replacingOccurrences(of: "'", with: ""))
                if line.contains("' passed") { passed += 1 }
            } else if line.contains(": error: ") {
                lines.append(String(line[line.range(of: ": error: ")!.upperBound...]))
            }
        }
        let expected = exhibit.tests.unpatched.count
        lines.append("\(passed) of \(expected) unpatched test(s) passed (swift test exit \(process.terminationStatus))")
        return MuseumLiveReport(
            mode: "swift test", command: command, lines: lines,
            asExpected: process.terminationStatus == 0 && passed == expected)
    }
}
