import Foundation
import XCTest

/// Runs the built `sdport` binary and collects its exit code, stdout and stderr.
///
/// The binary is found next to the test executable (SwiftPM puts every product of a build in one directory), or
/// else in the package's `.build/debug`. BehaviorTests depends on the `sdport` target, so it is always built.
struct CLIProcess {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String

        /// The non-empty lines of stderr.
        var stderrLines: [String] { stderr.split(separator: "\n").map(String.init).filter { !$0.isEmpty } }
        var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Behavior
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// The `sdport` executable. A missing binary fails the test (it never skips): BehaviorTests depends on the
    /// `sdport` target, so a missing binary means a broken build, which a skip would hide.
    static func binary() throws -> URL {
        try executable("sdport")
    }

    /// An executable product of the package, found as `binary()` finds `sdport` (BehaviorTests depends on each one
    /// it runs: `sdport`, `sdport-cache-worker`).
    static func executable(_ name: String) throws -> URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name),
            Bundle.main.bundleURL.appendingPathComponent(name),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name),
            packageRoot.appendingPathComponent(".build/debug/\(name)"),
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw MissingBinary(candidates: candidates.map(\.path))
        }
        return found
    }

    /// Runs `sdport arguments...` in `directory` (default: the package root) and waits for it to exit.
    /// Both pipes are drained while it runs, so a long output cannot block it.
    static func run(_ arguments: [String], in directory: URL? = nil,
                    environment: [String: String]? = nil) throws -> Result {
        try run(executable: binary(), arguments, in: directory, environment: environment)
    }

    /// Runs `python3 arguments...` (found on PATH) as `run` runs `sdport`; the tests of the scripts under scripts/.
    static func runPython(_ arguments: [String], in directory: URL? = nil) throws -> Result {
        try run(executable: URL(fileURLWithPath: "/usr/bin/env"), ["python3"] + arguments, in: directory)
    }

    /// Runs `executable arguments...` as `run` runs `sdport`.
    static func run(executable: URL, _ arguments: [String], in directory: URL? = nil,
                    environment: [String: String]? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? packageRoot
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let group = DispatchGroup()
        let outData = DataBox()
        let errData = DataBox()
        DispatchQueue.global().async(group: group) { outData.data = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData.data = err.fileHandleForReading.readDataToEndOfFile() }
        process.waitUntilExit()
        group.wait()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outData.data, as: UTF8.self),
                      stderr: String(decoding: errData.data, as: UTF8.self))
    }

    /// Thrown (a failure, not a skip) when no candidate path holds an executable `sdport`.
    struct MissingBinary: Error, CustomStringConvertible {
        let candidates: [String]
        var description: String { "sdport binary not found; looked at \(candidates)" }
    }

    /// Collects one pipe's bytes: written by its reader thread, read after the group has finished. Guarded by `lock`.
    private final class DataBox: @unchecked Sendable {
        private let lock = NSLock()
        private var stored = Data()
        var data: Data {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }
}
