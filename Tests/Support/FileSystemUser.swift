import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs code with the calling thread's file-system user switched away from root, so that permission bits
/// apply to it (for tests of unwritable directories, which root would otherwise write into).
///
/// Linux's `setfsuid` changes only the calling thread's file-system uid; going from 0 to another uid also
/// clears CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from that thread's effective set, and going back restores
/// them. Other threads of the test process keep root's rights throughout. Not a port of anything in
/// SDWebImage: test support only. glibc declares `setfsuid` in <sys/fsuid.h>, which Swift's Glibc module does
/// not import, so the function is looked up by name.
public enum FileSystemUser {
    public struct SwitchFailed: Error, CustomStringConvertible {
        public let description: String
    }

    private typealias SetFSUID = @convention(c) (uid_t) -> Int32

    /// Runs `body` with the thread's file-system uid set to `uid` when the process runs as root; for any other
    /// user permission bits already apply and `body` runs unchanged.
    public static func whileUnprivileged<T>(as uid: uid_t, _ body: () throws -> T) throws -> T {
        guard geteuid() == 0 else { return try body() }
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "setfsuid") else {
            throw SwitchFailed(description: "setfsuid is not available")
        }
        let setfsuid = unsafeBitCast(symbol, to: SetFSUID.self)
        let previous = uid_t(bitPattern: setfsuid(uid))
        defer { _ = setfsuid(previous) }
        // setfsuid answers the previous value whether or not it changed anything: asking again tells.
        guard uid_t(bitPattern: setfsuid(uid)) == uid else {
            throw SwitchFailed(description: "setfsuid(\(uid)) did not take effect (no CAP_SETUID?)")
        }
        return try body()
    }
}
