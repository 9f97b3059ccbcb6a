import Foundation
import SDPortTestSupport
import XCTest

/// A pseudo-terminal for driving `sdport` the way a person at a terminal does: the child's stdin, stdout and
/// stderr are the terminal's slave side; the test types on the master side and reads the screen from it.
///
/// Opened with `posix_openpt` / `grantpt` / `unlockpt` / `ptsname_r` (glibc, nothing to install; looked up with
/// `dlsym` because Swift's Glibc module hides them behind `_XOPEN_SOURCE`). Everything the child writes
/// is collected by a reader thread into `screen`; `waitFor` blocks on a condition until a text appears there, the
/// child exits, or a generous timeout passes (a guard, never the expected path). The collected text is guarded by
/// `condition`.
final class PseudoTerminal: @unchecked Sendable {
    let master: Int32
    let slave: Int32
    private let condition = NSCondition()
    private var collected = Data()
    private var closed = false

    private typealias OpenFunction = @convention(c) (Int32) -> Int32
    private typealias NameFunction = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32

    /// The C function `name` of the C library, as type `T`.
    private static func libc<T>(_ name: String, as type: T.Type) throws -> T {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { throw POSIXError(.ENOSYS) }
        return unsafeBitCast(symbol, to: type)
    }

    init() throws {
        let openpt = try Self.libc("posix_openpt", as: OpenFunction.self)
        let grantpt = try Self.libc("grantpt", as: OpenFunction.self)
        let unlockpt = try Self.libc("unlockpt", as: OpenFunction.self)
        let ptsname = try Self.libc("ptsname_r", as: NameFunction.self)
        master = openpt(O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw POSIXError(.EIO) }
        var name = [CChar](repeating: 0, count: 128)
        guard grantpt(master) == 0, unlockpt(master) == 0, ptsname(master, &name, name.count) == 0 else {
            close(master)
            throw POSIXError(.EIO)
        }
        slave = open(
            String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), O_RDWR | O_NOCTTY)
        guard slave >= 0 else {
            close(master)
            throw POSIXError(.EIO)
        }
    }

    /// Starts `arguments` of the `sdport` binary on the slave side, then lets go of the parent's slave descriptor,
    /// so the master reads end of file (EIO) once the child has exited. The test ends it with `wait(deadline:)`.
    /// `unset` names variables the child must not inherit.
    func start(_ arguments: [String], environment: [String: String], unset: [String] = []) throws -> ChildProcess {
        var merged = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        for name in unset { merged[name] = nil }
        defer { close(slave) }
        let process = try ChildProcess(
            executable: try CLIProcess.binary(), arguments: arguments,
            directory: CLIProcess.packageRoot, environment: merged,
            stdin: .descriptor(slave), stdout: .descriptor(slave), stderr: .descriptor(slave))
        Thread.detachNewThread { [self] in readUntilClosed() }
        return process
    }

    private func readUntilClosed() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(master, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            condition.lock()
            if count > 0 {
                collected.append(contentsOf: buffer[0..<count])
            } else {
                closed = true
            }
            condition.broadcast()
            condition.unlock()
            if count <= 0 { return }
        }
    }

    /// Everything the child has written so far, as text.
    var screen: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: collected, as: UTF8.self)
    }

    /// The screen without colour codes and with the terminal's "\r\n" as "\n".
    var plainScreen: String {
        screen.replacingOccurrences(of: "\r\n", with: "\n")
            .replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    /// Waits until the plain screen contains `text` at least `occurrences` times. Returns false when the child
    /// closed the terminal first or `timeout` passed.
    @discardableResult
    func waitFor(_ text: String, occurrences: Int = 1, timeout: TimeInterval = 120) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let plain = String(decoding: collected, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
                .replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
            if plain.components(separatedBy: text).count - 1 >= occurrences { return true }
            if closed { return false }
            if !condition.wait(until: deadline) { return false }
        }
    }

    /// Waits until the child has closed the terminal (it exited); false after `timeout`.
    func waitUntilClosed(timeout: TimeInterval = 120) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !closed {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }

    /// Types `keys` (no Return unless included).
    func type(_ keys: String) {
        let bytes = Array(keys.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    deinit {
        close(master)
    }
}
