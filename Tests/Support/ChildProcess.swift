import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs an executable as a child process and reports, besides its exit status and output, its own peak resident
/// set size: the `ru_maxrss` that `wait4` returns for it, the most memory it ever had resident.
///
/// Foundation's `Process` reaps its children itself, so it cannot give a child's `rusage`. Nor can this process
/// start the child itself: Linux carries the resident high-water mark of the memory a process had before `exec`
/// into its `ru_maxrss`, and a child spawned from here starts with this process's memory (vfork shares it, fork
/// copies it), so every child would report at least the test process's own peak. A small launcher (python3, which
/// the tests already need) forks the child from its own few megabytes, reaps it with `os.wait4` and writes
/// `ru_maxrss` and the raw wait status to a third pipe; its floor (about 13 MB) is below any Swift program's.
/// Both output pipes are drained while the child runs. Launcher and child share a new process group; if it is
/// still running after `deadline` seconds the group is killed (SIGKILL) and `timedOut` is set, so a hang fails its
/// test, not the whole run.
public enum ChildProcess {
    /// What the child did.
    public struct Result: Sendable {
        /// The exit status, or nil when a signal ended the child (`signal` says which).
        public let status: Int32?
        public let signal: Int32?
        public let stdout: String
        public let stderr: String
        /// `ru_maxrss` of the child, in bytes (Linux reports kilobytes).
        public let peakResidentBytes: Int
        public let timedOut: Bool

        /// The non-empty lines of stderr.
        public var stderrLines: [String] { stderr.split(separator: "\n").map(String.init).filter { !$0.isEmpty } }
    }

    /// Thrown when the child cannot be started.
    public struct SpawnError: Error, CustomStringConvertible {
        public let errno: Int32
        public var description: String { "posix_spawn failed: \(String(cString: strerror(errno)))" }
    }

    /// Runs `executable arguments...` with the test's environment plus `environment`, and waits for it.
    public static func run(executable: URL, _ arguments: [String], environment: [String: String] = [:],
                           deadline seconds: TimeInterval = 120) throws -> Result {
        let outPipe = try makePipe(), errPipe = try makePipe(), reportPipe = try makePipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe.write, 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe.write, 2)
        posix_spawn_file_actions_adddup2(&actions, reportPipe.write, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)  // a new group, led by the launcher

        let argv = ["/usr/bin/env", "python3", "-c", launcher, executable.path] + arguments
        let env = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }.map { "\($0)=\($1)" }
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = env.map { strdup($0) } + [nil]
        defer { (cArguments + cEnvironment).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, &attributes, cArguments, cEnvironment)
        // The launcher has its copies (the pipes are close-on-exec; dup2 gives it plain ones).
        [outPipe.write, errPipe.write, reportPipe.write].forEach { close($0) }
        guard spawned == 0 else {
            [outPipe.read, errPipe.read, reportPipe.read].forEach { close($0) }
            throw SpawnError(errno: spawned)
        }

        let group = DispatchGroup()
        let out = Locked(Data()), err = Locked(Data()), report = Locked(Data())
        for (fd, box) in [(outPipe.read, out), (errPipe.read, err), (reportPipe.read, report)] {
            DispatchQueue.global().async(group: group) {
                box.value = FileHandle(fileDescriptor: fd, closeOnDealloc: true).readDataToEndOfFile()
            }
        }

        // The watchdog may kill only a group whose leader has not been reaped: until `reaped` is set, the id cannot
        // belong to another process or group (waitid with WNOWAIT leaves the exited launcher a zombie).
        let reaped = Locked(false), timedOut = Locked(false)
        let childID = pid
        let watchdog = DispatchWorkItem {
            reaped.update { done in
                guard !done else { return }
                timedOut.value = true
                kill(-childID, SIGKILL)
            }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        reaped.update { done in done = true }
        watchdog.cancel()
        var launcherStatus: Int32 = 0
        while waitpid(pid, &launcherStatus, 0) < 0 && errno == EINTR {}
        group.wait()

        // "ru_maxrss-in-kilobytes raw-wait-status" from the launcher; nothing if it could not run the child.
        let fields = String(decoding: report.value, as: UTF8.self).split(separator: " ").compactMap { Int($0) }
        let killed = timedOut.value
        guard fields.count == 2 else {
            throw LauncherError(stderr: String(decoding: err.value, as: UTF8.self), timedOut: killed)
        }
        let status = Int32(truncatingIfNeeded: fields[1])
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as functions.
        let exited = status & 0x7F == 0
        return Result(status: exited ? (status >> 8) & 0xFF : nil, signal: exited ? nil : status & 0x7F,
                      stdout: String(decoding: out.value, as: UTF8.self),
                      stderr: String(decoding: err.value, as: UTF8.self),
                      peakResidentBytes: fields[0] * 1024, timedOut: killed)
    }

    /// Thrown when the launcher reported nothing (python3 missing, or the whole group killed at the deadline).
    public struct LauncherError: Error, CustomStringConvertible {
        public let stderr: String
        public let timedOut: Bool
        public var description: String {
            timedOut ? "the child was still running at the deadline and was killed" : "the launcher failed: \(stderr)"
        }
    }

    /// Forks the child (argv[1:]) from the launcher's small memory, reaps it with wait4 and writes its ru_maxrss and
    /// raw wait status to fd 3.
    private static let launcher = """
        import os, sys
        pid = os.fork()
        if pid == 0:
            try:
                os.execv(sys.argv[1], sys.argv[1:])
            finally:
                os._exit(127)
        _, status, usage = os.wait4(pid, 0)
        os.write(3, b"%d %d" % (usage.ru_maxrss, status))
        """

    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw SpawnError(errno: errno) }
        // Close-on-exec, so no other child inherits them (pipe2 is not imported into Swift).
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }
}
