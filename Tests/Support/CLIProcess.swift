import Foundation
import XCTest

/// Runs the built `sdport` binary (or another command) to the end, with a deadline, and collects its exit code,
/// stdout, stderr and peak resident size. A thin layer over `ChildProcess` (Tests/Support), which starts it,
/// drains both pipes while it runs, and kills it past its deadline.
///
/// The binary is found next to the test executable (SwiftPM puts every product of a build in one directory), or
/// else in the package's `.build/debug`. the test targets that run it (BehaviorTests, ToolingTests, InterviewTests) depend on the `sdport` target, so it is always built.
public struct CLIProcess {
    /// How long a command may run unless its test says otherwise: generous for a cold debug build on a busy
    /// machine, short enough that a hang fails the test rather than the whole run.
    public static let defaultDeadline: TimeInterval = 120

    public struct Result {
        public let status: Int32
        public let stdout: String
        public let stderr: String
        /// Whether it exited (`status` is the exit code) or was ended by a signal (`status` is its number).
        public var reason: ChildProcess.Exit.Reason = .exit
        /// The command's peak resident set size in bytes: `ru_maxrss` of its own `wait4` (see `ChildProcess`).
        public var peakResidentBytes: Int = 0

        /// The non-empty lines of stderr.
        public var stderrLines: [String] { stderr.split(separator: "\n").map(String.init).filter { !$0.isEmpty } }
        public var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    public static let packageRoot = ChildProcess.packageRoot

    /// The `sdport` executable. A missing binary fails the test (it never skips): the test targets depend on the
    /// `sdport` target, so a missing binary means a broken build, which a skip would hide.
    public static func binary() throws -> URL {
        try executable("sdport")
    }

    /// An executable product of the package, found as `binary()` finds `sdport` (the test targets depend on each one
    /// they run: `sdport`, `sdport-cache-worker`, `sdport-test-launcher`).
    public static func executable(_ name: String) throws -> URL {
        try ChildProcess.productExecutable(name)
    }

    /// Runs `sdport arguments...` in `directory` (default: the package root) and waits for it to exit, at most
    /// `deadline` seconds (then it is killed and `ChildProcess.DeadlineExceeded`, naming the command, is thrown).
    public static func run(
        _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil,
        input: String? = nil, deadline: TimeInterval = defaultDeadline
    ) throws -> Result {
        try run(
            executable: binary(), arguments, in: directory, environment: environment, input: input, deadline: deadline)
    }

    /// Runs `python3 arguments...` (found on PATH) as `run` runs `sdport`; the tests of the scripts under scripts/.
    public static func runPython(
        _ arguments: [String], in directory: URL? = nil,
        deadline: TimeInterval = defaultDeadline
    ) throws -> Result {
        try run(
            executable: URL(fileURLWithPath: "/usr/bin/env"), ["python3"] + arguments, in: directory, deadline: deadline
        )
    }

    /// Runs `executable arguments...` as `run` runs `sdport`. `environment` is merged into this process's;
    /// `input`, when given, is written to the child's stdin, which is then closed (else stdin is /dev/null).
    public static func run(
        executable: URL, _ arguments: [String], in directory: URL? = nil,
        environment: [String: String]? = nil, input: String? = nil,
        deadline: TimeInterval = defaultDeadline
    ) throws -> Result {
        let child = try ChildProcess(
            executable: executable, arguments: arguments, directory: directory ?? packageRoot,
            environment: environment.map { ProcessInfo.processInfo.environment.merging($0) { _, new in new } },
            stdin: input == nil ? .null : .pipe)
        if let input, let handle = child.input {
            // On its own thread: a child that reads nothing must not block the test in write (the deadline ends it).
            Thread.detachNewThread {
                try? handle.write(contentsOf: Data(input.utf8))
                try? handle.close()
            }
        }
        let exit = try child.wait(deadline: deadline)
        return Result(
            status: exit.code, stdout: child.text(1), stderr: child.text(2), reason: exit.reason,
            peakResidentBytes: exit.peakResidentBytes)
    }
}
