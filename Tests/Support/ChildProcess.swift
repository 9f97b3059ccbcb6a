import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One child process of a test, always with a deadline: the one way the tests start a process (`sdport`, the
/// cache worker, python, curl, the test binary itself). Test scaffolding, with no counterpart in SDWebImage 4.4.8.
///
/// A hang must fail a test, not the whole run: `wait(deadline:)` waits for the exit and for the end of both
/// output pipes until the deadline, then sends SIGTERM, gives the child a few seconds, sends SIGKILL to its
/// process group, and throws `DeadlineExceeded`, whose description names the command line and the deadline.
///
/// Spawned with `posix_spawn` rather than Foundation's `Process`, because the test needs the child's `wait4`
/// status and resource usage: on Linux, `Process` reaps its child itself (`waitpid`, on its own thread) and
/// keeps no `rusage`, and reading `getrusage(RUSAGE_CHILDREN)` before and after is wrong when children run side
/// by side (it is a maximum over every child reaped so far, of any test). So the process is started through the
/// small `sdport-test-launcher` (Tests/Launcher/launcher.c), which forks and execs the command, reports its
/// exit and its `ru_maxrss` on a fourth pipe, and ends as it ended; see there why a child forked from the test
/// process itself would report the test process's own peak. One thread per child blocks in `waitid(WNOWAIT)`
/// and reaps the launcher under `condition`, so a signal sent while holding `condition` to a launcher not yet
/// reaped can never reach a recycled pid.
///
/// Output is drained while the child runs (one reader thread per pipe), so a long output never blocks it.
/// State shared with those threads is guarded by `condition`.
public final class ChildProcess: @unchecked Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        /// `/dev/null`.
        case null
        /// A pipe: the parent's end of stdin is `input`; stdout and stderr are collected.
        case pipe
        /// A pipe whose read end the parent closes at once: a reader that has gone away (writes fail with EPIPE,
        /// or raise SIGPIPE). Output streams only.
        case closedPipe
        /// A descriptor of the caller's (a pseudo-terminal's slave side, say); the caller keeps and closes it.
        case descriptor(Int32)
    }

    /// How the command ended.
    public struct Exit: Sendable, Equatable {
        public enum Reason: Sendable, Equatable { case exit, signal }
        public let reason: Reason
        /// The exit status, or the number of the signal that ended it.
        public let code: Int32
        /// The command's peak resident set size in bytes (`ru_maxrss` of its `wait4`); 0 when the launcher was
        /// killed before it could report (the deadline's SIGKILL).
        public let peakResidentBytes: Int
    }

    /// Thrown when the command had not ended by its deadline; it has been killed.
    public struct DeadlineExceeded: Error, CustomStringConvertible {
        public let commandLine: String
        public let seconds: TimeInterval
        /// What it had written by then (stdout and stderr, the last few thousand characters of each).
        public let stdout: String
        public let stderr: String
        public var description: String {
            "`\(commandLine)` did not end within its \(seconds) s deadline and was killed (SIGTERM, then SIGKILL)"
                + "\n--- stdout (tail) ---\n\(stdout.suffix(3000))\n--- stderr (tail) ---\n\(stderr.suffix(3000))"
        }
    }

    /// Thrown when the launcher could not start the command (a missing or non-executable path).
    public struct SpawnFailed: Error, CustomStringConvertible {
        public let commandLine: String
        public let error: Int32
        public var description: String { "could not start `\(commandLine)`: \(String(cString: strerror(error)))" }
    }

    /// How long a child has between SIGTERM and SIGKILL.
    static let terminationGrace: TimeInterval = 5

    public let commandLine: String
    /// The launcher's process id (also the process group of the launcher and the command).
    public let processIdentifier: pid_t
    /// The parent's end of the child's stdin when it is `.pipe`: write, then close it to send end of file.
    public let input: FileHandle?

    private let condition = NSCondition()
    private var launcherStatus: Int32?  // the launcher's wait status once reaped
    private var collected: [Int32: Data] = [:]  // by the child's descriptor: 1, 2, and 3 (the report)
    private var openReaders = 0

    /// Starts `executable arguments...` in `directory` with `environment` (nil: this process's).
    public init(
        executable: URL, arguments: [String], directory: URL? = nil, environment: [String: String]? = nil,
        stdin: Stream = .null, stdout: Stream = .pipe, stderr: Stream = .pipe
    ) throws {
        commandLine = ([executable.path] + arguments).map(Self.quoted).joined(separator: " ")
        let launcher = try Self.productExecutable("sdport-test-launcher")

        var childEnds: [Int32: Int32] = [:]  // child descriptor -> parent's descriptor to dup2 onto it
        var closeAfterSpawn: [Int32] = []
        var readEnds: [Int32: Int32] = [:]  // child descriptor -> the parent's read end
        var closeAtOnce: [Int32] = []
        var inputHandle: FileHandle?
        var nullDescriptor: Int32 = -1
        defer { if nullDescriptor >= 0 { close(nullDescriptor) } }
        func null() throws -> Int32 {
            if nullDescriptor < 0 {
                nullDescriptor = open("/dev/null", O_RDWR | O_CLOEXEC)
                guard nullDescriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            }
            return nullDescriptor
        }
        func makePipe() throws -> (read: Int32, write: Int32) {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            // Close-on-exec at once: no other child may inherit this pipe (it would hold it open, and its reader
            // would never see the end). The spawn's dup2 onto 0-3 clears the flag on the copies the child keeps.
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            return (ends[0], ends[1])
        }
        do {
            switch stdin {
            case .null: childEnds[0] = try null()
            case .pipe, .closedPipe:
                let ends = try makePipe()
                childEnds[0] = ends.read
                closeAfterSpawn.append(ends.read)
                inputHandle = FileHandle(fileDescriptor: ends.write, closeOnDealloc: true)
            case .descriptor(let descriptor): childEnds[0] = descriptor
            }
            for (target, stream) in [(Int32(1), stdout), (Int32(2), stderr)] {
                switch stream {
                case .null: childEnds[target] = try null()
                case .pipe, .closedPipe:
                    let ends = try makePipe()
                    childEnds[target] = ends.write
                    closeAfterSpawn.append(ends.write)
                    if case .closedPipe = stream { closeAtOnce.append(ends.read) } else { readEnds[target] = ends.read }
                case .descriptor(let descriptor): childEnds[target] = descriptor
                }
            }
            let report = try makePipe()
            childEnds[3] = report.write
            closeAfterSpawn.append(report.write)
            readEnds[3] = report.read
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for target in childEnds.keys.sorted() {
            posix_spawn_file_actions_adddup2(&actions, childEnds[target]!, target)
        }
        try Self.closeFrom(&actions, 4)
        if let directory { try Self.changeDirectory(&actions, directory.path) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group (as Foundation's Process does), so the deadline's SIGKILL reaches the launcher and
        // the command together; no blocked signals (the spawning thread's mask is inherited otherwise).
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))

        let argv = [launcher.path, executable.path, executable.path] + arguments
        let environmentList = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let spawned = Self.withCStrings(argv) { argvPointer in
            Self.withCStrings(environmentList) { environmentPointer in
                posix_spawn(&pid, launcher.path, &actions, &attributes, argvPointer, environmentPointer)
            }
        }
        for descriptor in closeAfterSpawn { close(descriptor) }
        for descriptor in closeAtOnce { close(descriptor) }
        guard spawned == 0 else {
            for descriptor in readEnds.values { close(descriptor) }
            throw SpawnFailed(commandLine: commandLine, error: spawned)
        }
        processIdentifier = pid
        input = inputHandle
        if case .closedPipe = stdin { try? inputHandle?.close() }
        // Every reader's slot exists before the first reader starts: a reader appends under `condition`, so the
        // slots are made under it too, not while readers already run (ThreadSanitizer saw that race).
        condition.lock()
        openReaders = readEnds.count
        for target in readEnds.keys { collected[target] = Data() }
        condition.unlock()
        for (target, descriptor) in readEnds {
            Thread.detachNewThread { [self] in drain(descriptor, into: target) }
        }
        Thread.detachNewThread { [self] in reapLauncher() }
    }

    /// Whether the launcher (so the command) has not been reaped yet.
    public var isRunning: Bool {
        condition.lock()
        defer { condition.unlock() }
        return launcherStatus == nil
    }

    /// Sends `signal` to the command (the launcher passes it on) while the launcher has not been reaped; SIGKILL
    /// goes to the whole process group, launcher and command at once.
    public func send(_ signal: Int32) {
        condition.lock()
        defer { condition.unlock() }
        guard launcherStatus == nil else { return }
        kill(signal == SIGKILL ? -processIdentifier : processIdentifier, signal)
    }

    /// Waits until the command has exited and both output pipes have ended, at most `seconds`; past that it kills
    /// the command (SIGTERM, then SIGKILL to its group) and throws `DeadlineExceeded`.
    @discardableResult
    public func wait(deadline seconds: TimeInterval) throws -> Exit {
        if let exit = try waitUntilFinished(until: Date(timeIntervalSinceNow: seconds)) { return exit }
        send(SIGTERM)
        if try waitUntilFinished(until: Date(timeIntervalSinceNow: Self.terminationGrace)) == nil {
            send(SIGKILL)
            _ = try waitUntilFinished(until: Date(timeIntervalSinceNow: Self.terminationGrace))
        }
        throw DeadlineExceeded(commandLine: commandLine, seconds: seconds, stdout: text(1), stderr: text(2))
    }

    /// What the command wrote on stdout (1) or stderr (2) so far, as UTF-8.
    public func text(_ descriptor: Int32) -> String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: collected[descriptor] ?? Data(), as: UTF8.self)
    }

    /// The bytes the command wrote on stdout (1) or stderr (2) so far.
    public func data(_ descriptor: Int32) -> Data {
        condition.lock()
        defer { condition.unlock() }
        return collected[descriptor] ?? Data()
    }

    /// The exit once the launcher is reaped and every pipe has ended, or nil at `limit`.
    private func waitUntilFinished(until limit: Date) throws -> Exit? {
        condition.lock()
        defer { condition.unlock() }
        while launcherStatus == nil || openReaders > 0 {
            if !condition.wait(until: limit) {
                if launcherStatus == nil || openReaders > 0 { return nil }
            }
        }
        let status = launcherStatus!
        // The launcher's report: how the command ended and its peak; absent when the launcher was killed.
        // (A failed exec writes its line before the launcher writes the child's exit: the first line counts.)
        let firstLine = String(decoding: collected[3] ?? Data(), as: UTF8.self).split(separator: "\n").first ?? ""
        let report = firstLine.split(separator: " ")
        if report.count == 3, let code = Int32(report[1]), let kilobytes = Int(report[2]) {
            switch report[0] {
            case "exit": return Exit(reason: .exit, code: code, peakResidentBytes: kilobytes * 1024)
            case "signal": return Exit(reason: .signal, code: code, peakResidentBytes: kilobytes * 1024)
            default: throw SpawnFailed(commandLine: commandLine, error: code)
            }
        }
        let signaled = status & 0x7f
        if signaled != 0 { return Exit(reason: .signal, code: signaled, peakResidentBytes: 0) }
        return Exit(reason: .exit, code: (status >> 8) & 0xff, peakResidentBytes: 0)
    }

    private func drain(_ descriptor: Int32, into target: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            condition.lock()
            collected[target, default: Data()].append(contentsOf: buffer[0..<count])
            condition.unlock()
        }
        close(descriptor)
        condition.lock()
        openReaders -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for the launcher to exit without reaping it (`WNOWAIT`), then reaps it holding `condition`: until then
    /// its pid (and process group) cannot be reused, so `send` never signals a stranger.
    private func reapLauncher() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        condition.lock()
        var status: Int32 = 0
        while waitpid(processIdentifier, &status, 0) < 0 && errno == EINTR {}
        launcherStatus = status
        condition.broadcast()
        condition.unlock()
    }

    // MARK: Spawning

    /// An executable product of the package (`sdport`, `sdport-cache-worker`, the launcher): next to the test
    /// executable (SwiftPM puts every product of a build in one directory), or else in the package's
    /// `.build/debug`. The test targets depend on each, so a missing one is a broken build and fails, never skips.
    public static func productExecutable(_ name: String) throws -> URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name),
            Bundle.main.bundleURL.appendingPathComponent(name),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name),
            packageRoot.appendingPathComponent(".build/debug/\(name)"),
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw MissingExecutable(name: name, candidates: candidates.map(\.path))
        }
        return found
    }

    /// The package's root directory.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// Thrown (a failure, not a skip) when no candidate path holds the executable.
    public struct MissingExecutable: Error, CustomStringConvertible {
        public let name: String
        public let candidates: [String]
        public var description: String { "\(name) binary not found; looked at \(candidates)" }
    }

    private typealias CloseFromFunction =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChangeDirectoryFunction =
        @convention(c) (
            UnsafeMutablePointer<posix_spawn_file_actions_t>,
            UnsafePointer<CChar>
        ) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34): the child keeps descriptors 0-3 only, whatever
    /// this process has open without close-on-exec. Looked up with `dlsym`: Swift's Glibc module hides the `_np`
    /// functions behind `_GNU_SOURCE`.
    private static func closeFrom(_ actions: inout posix_spawn_file_actions_t, _ lowest: Int32) throws {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else {
            throw POSIXError(.ENOSYS)
        }
        let result = unsafeBitCast(symbol, to: CloseFromFunction.self)(&actions, lowest)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
    }

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29), looked up as `closeFrom` is.
    private static func changeDirectory(_ actions: inout posix_spawn_file_actions_t, _ path: String) throws {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") else {
            throw POSIXError(.ENOSYS)
        }
        let result = path.withCString { unsafeBitCast(symbol, to: ChangeDirectoryFunction.self)(&actions, $0) }
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
    }

    /// `strings` as a NULL-terminated C array for the duration of `body`.
    private static func withCStrings<R>(
        _ strings: [String],
        _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R
    ) -> R {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// A word of a shell command line, quoted when it needs it (for messages only).
    private static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,@%+".contains($0) }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
