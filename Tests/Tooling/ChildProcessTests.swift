import Foundation
import SDPortTestSupport
import XCTest

/// The tests' one way to run a child process (`ChildProcess`, and `CLIProcess` over it): a deadline that ends a
/// hang as a failure naming the command, both pipes drained, and the child's own peak resident size. Test
/// infrastructure, so no parity ID.
final class ChildProcessTests: XCTestCase {
    /// A child that outlives its deadline is killed and the error names the command line and the deadline.
    func testDeadlineKillsTheChildAndTheErrorNamesTheCommand() throws {
        let started = try ChildProcess(executable: URL(fileURLWithPath: "/bin/sleep"), arguments: ["30"])
        XCTAssertThrowsError(try started.wait(deadline: 1)) { error in
            let exceeded = error as? ChildProcess.DeadlineExceeded
            XCTAssertEqual(exceeded?.commandLine, "/bin/sleep 30")
            XCTAssertTrue("\(error)".contains("`/bin/sleep 30` did not end within its 1.0 s deadline"), "\(error)")
        }
        XCTAssertFalse(started.isRunning, "killed and reaped")

        // The same through CLIProcess.run(executable:), which the CLI tests use.
        XCTAssertThrowsError(try CLIProcess.run(executable: URL(fileURLWithPath: "/bin/sleep"), ["30"], deadline: 1)) {
            error in
            XCTAssertTrue("\(error)".contains("/bin/sleep 30"), "\(error)")
        }
    }

    /// A child that ignores SIGTERM is ended by the SIGKILL that follows, with whatever it started (its process
    /// group): the grandchild `sleep` holds the output pipe, so the wait would not end if it survived.
    func testAChildThatIgnoresSIGTERMIsKilledWithItsGroup() throws {
        let started = try ChildProcess(
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", "trap '' TERM; echo ready; /bin/sleep 30; echo done"])
        XCTAssertThrowsError(try started.wait(deadline: 1)) { error in
            XCTAssertTrue("\(error)".contains("/bin/sh -c"), "\(error)")
            XCTAssertTrue("\(error)".contains("ready"), "the output so far is in the message: \(error)")
        }
        XCTAssertFalse(started.isRunning)
        XCTAssertFalse(started.text(1).contains("done"))
    }

    /// The exit status, both streams (more than a pipe holds, so they are drained while it runs), stdin, and an
    /// ending by a signal.
    func testStatusStreamsInputAndSignal() throws {
        let result = try CLIProcess.run(
            executable: URL(fileURLWithPath: "/bin/sh"),
            ["-c", "head -c 300000 /dev/zero; cat >&2; exit 3"], input: "to stderr", deadline: 60)
        XCTAssertEqual(result.status, 3)
        XCTAssertEqual(result.reason, .exit)
        XCTAssertEqual(result.stdout.utf8.count, 300_000)
        XCTAssertEqual(result.stderr, "to stderr")

        let killed = try CLIProcess.run(
            executable: URL(fileURLWithPath: "/bin/sh"), ["-c", "kill -USR1 $$"], deadline: 60)
        XCTAssertEqual(killed.reason, .signal)
        XCTAssertEqual(killed.status, SIGUSR1)

        XCTAssertThrowsError(try CLIProcess.run(executable: URL(fileURLWithPath: "/nonexistent/tool"), [])) { error in
            XCTAssertTrue("\(error)".contains("/nonexistent/tool"), "\(error)")
        }
    }

    /// The peak resident size is the child's own: a child that touches 64 MiB reports at least that, and `true`
    /// reports a few megabytes, not the test process's own peak (which a child forked from it would inherit).
    func testPeakResidentSizeIsTheChildsOwn() throws {
        let small = try CLIProcess.run(executable: URL(fileURLWithPath: "/bin/true"), [], deadline: 60)
        XCTAssertEqual(small.status, 0)
        XCTAssertGreaterThan(small.peakResidentBytes, 0)
        // A few megabytes normally; under a sanitizer the launcher that forks it carries the sanitizer's runtime
        // (about 19 MB under ThreadSanitizer), which the child's peak includes until its exec. Either way far below
        // the test process's own peak, which a child forked from the test process would report.
        var own = rusage()
        getrusage(RUSAGE_SELF.rawValue, &own)
        XCTAssertLessThan(
            small.peakResidentBytes, min(32 << 20, own.ru_maxrss * 1024 / 2),
            "true's own peak, not the test process's (\(own.ru_maxrss / 1024) MB)")

        let large = try CLIProcess.runPython(
            ["-c", "b = bytearray(64 << 20)\nfor i in range(0, len(b), 4096): b[i] = 1"],
            deadline: 60)
        XCTAssertEqual(large.status, 0, large.stderr)
        XCTAssertGreaterThanOrEqual(large.peakResidentBytes, 64 << 20)
        XCTAssertLessThan(large.peakResidentBytes, 256 << 20)
    }
}
