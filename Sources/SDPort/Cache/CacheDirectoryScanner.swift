import Foundation
import Glibc

/// One entry found by `CacheDirectoryScanner`: a file, or (from `forEachEntry`) a directory.
struct CacheDirectoryEntry {
    /// Full path.
    let path: String
    /// The last path component.
    let name: String
    /// Whether the name starts with ".".
    let isHidden: Bool
    /// Whether it is a directory (never true in `forEachFile`).
    let isDirectory: Bool
    /// Logical size (`st_size`).
    let size: UInt64
    /// Space used on disk: `st_blocks * 512`.
    let allocatedSize: UInt64
    /// Last modification (`st_mtim`), seconds since 1970.
    let modificationDate: TimeInterval
    /// Last access (`st_atim`), seconds since 1970.
    let accessDate: TimeInterval

    /// The entry `name` inside `directory`, from its `stat`.
    init(name: String, in directory: String, info: stat) {
        path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
        self.name = name
        isHidden = name.hasPrefix(".")
        isDirectory = (info.st_mode & S_IFMT) == S_IFDIR
        size = UInt64(max(0, info.st_size))
        allocatedSize = UInt64(max(0, info.st_blocks)) * 512
        modificationDate = Self.seconds(info.st_mtim)
        accessDate = Self.seconds(info.st_atim)
    }

    private static func seconds(_ time: timespec) -> TimeInterval {
        TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1_000_000_000
    }
}

/// Walks a cache directory with `opendir`/`readdir`/`fstatat`, calling back for every entry that is not a
/// directory (symbolic links are reported as themselves, never followed), descending into subdirectories.
/// When the callback answers `.remove`, the entry is unlinked at once, relative to its directory (removing the
/// entry just read is allowed during `readdir`).
///
/// The original's cleanup and `calculateSize` enumerate with resource keys, its `getSize` with `enumeratorAtPath:`
/// and file attributes, its `getDiskCount` with `enumeratorAtPath:` alone. On Linux, Foundation's
/// `totalFileAllocatedSize` is `st_blocks × st_blksize`, eight times the real size on ext4, and the enumerator
/// costs several system calls per file, so the port reads `stat` itself: blocks × 512 is the space on disk.
enum CacheDirectoryScanner {
    // Hidden directories are not entered when `skipsHiddenDirectories` (hidden files are still reported,
    // flagged, so callers decide). A missing root visits nothing.

    /// What to do with a visited file.
    enum Decision {
        case keep
        case remove
    }

    /// Visits the files under `root`, never removing any.
    static func forEachFile(under root: String, skipsHiddenDirectories: Bool, _ visit: (CacheDirectoryEntry) -> Void) {
        forEachFile(under: root, skipsHiddenDirectories: skipsHiddenDirectories) { entry -> Decision in
            visit(entry)
            return .keep
        }
    }

    /// The entry's name, read in place up to its NUL. Not `entry.pointee.d_name`: that copies the whole
    /// 256-byte array, but readdir's records are only as long as their name (`d_reclen`), so for the last
    /// record of readdir's buffer the copy read past the buffer's end (AddressSanitizer: heap-buffer-overflow).
    private static func entryName(_ entry: UnsafeMutablePointer<dirent>) -> String {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        return String(cString: UnsafeRawPointer(entry).advanced(by: offset).assumingMemoryBound(to: CChar.self))
    }

    /// Visits the files under `root` and removes those the callback asks to. Returns how many were removed.
    @discardableResult
    static func forEachFile(
        under root: String, skipsHiddenDirectories: Bool,
        _ visit: (CacheDirectoryEntry) -> Decision
    ) -> Int {
        var subdirectories: [String] = []
        var removed = visitFiles(
            of: root, skipsHiddenDirectories: skipsHiddenDirectories,
            subdirectories: &subdirectories, visit)
        // Entered after the parent is closed, so a deep tree holds one open directory at a time.
        for subdirectory in subdirectories {
            removed += forEachFile(under: subdirectory, skipsHiddenDirectories: skipsHiddenDirectories, visit)
        }
        return removed
    }

    /// The files of one directory (removing those the callback asks to), collecting its subdirectories.
    private static func visitFiles(
        of root: String, skipsHiddenDirectories: Bool, subdirectories: inout [String],
        _ visit: (CacheDirectoryEntry) -> Decision
    ) -> Int {
        guard let directory = opendir(root) else { return 0 }
        defer { closedir(directory) }
        let directoryDescriptor = dirfd(directory)
        var removed = 0
        while let entry = readdir(directory) {
            let name = entryName(entry)
            if name == "." || name == ".." { continue }
            var info = stat()
            guard fstatat(directoryDescriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            let found = CacheDirectoryEntry(name: name, in: root, info: info)
            if found.isDirectory {
                if !(found.isHidden && skipsHiddenDirectories) { subdirectories.append(found.path) }
                continue
            }
            if visit(found) == .remove, unlinkat(directoryDescriptor, name, 0) == 0 { removed += 1 }
        }
        return removed
    }

    /// Visits every entry under `root`, directories included, as `NSDirectoryEnumerator` lists them: each
    /// directory is reported, then entered. With `skipsHiddenEntries`, hidden entries are neither reported nor
    /// entered (`NSDirectoryEnumerationSkipsHiddenFiles`); without, everything is. Never removes anything.
    static func forEachEntry(under root: String, skipsHiddenEntries: Bool, _ visit: (CacheDirectoryEntry) -> Void) {
        var subdirectories: [String] = []
        listEntries(of: root, skipsHiddenEntries: skipsHiddenEntries, subdirectories: &subdirectories, visit)
        // Entered after the parent is closed, so a deep tree holds one open directory at a time.
        for subdirectory in subdirectories {
            forEachEntry(under: subdirectory, skipsHiddenEntries: skipsHiddenEntries, visit)
        }
    }

    /// Reports the entries of one directory and collects its subdirectories.
    private static func listEntries(
        of root: String, skipsHiddenEntries: Bool, subdirectories: inout [String],
        _ visit: (CacheDirectoryEntry) -> Void
    ) {
        guard let directory = opendir(root) else { return }
        defer { closedir(directory) }
        let directoryDescriptor = dirfd(directory)
        while let entry = readdir(directory) {
            let name = entryName(entry)
            if name == "." || name == ".." { continue }
            let isHidden = name.hasPrefix(".")
            if isHidden && skipsHiddenEntries { continue }
            var info = stat()
            guard fstatat(directoryDescriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            let found = CacheDirectoryEntry(name: name, in: root, info: info)
            if found.isDirectory { subdirectories.append(found.path) }
            visit(found)
        }
    }
}
