import Foundation

/// How much memory this process may use, and how much it uses, as Linux says it: the cgroup's limit and the
/// resident set. Port addition: iOS gives NSCache memory pressure and UIKit's memory warning; a Linux process
/// gets neither, so the cache's default limit and `SDMemoryPressureMonitor` read these files instead.
///
/// The paths are parameters so tests can point them at a fake cgroup tree.
public enum SDProcessMemory {
    /// The memory the process may use: its cgroup v2 `memory.max` when one is set, else its cgroup v1
    /// `memory.limit_in_bytes` when that is below physical memory, else physical memory.
    public static func limitBytes(cgroupRoot: String = "/sys/fs/cgroup", selfCgroup: String = "/proc/self/cgroup")
        -> UInt64
    {
        let physical = ProcessInfo.processInfo.physicalMemory
        if let directory = cgroupV2Directory(cgroupRoot: cgroupRoot, selfCgroup: selfCgroup),
            let text = read(directory + "/memory.max"), let limit = UInt64(text), limit > 0
        {
            return min(limit, physical)
        }
        if let path = cgroupV1MemoryPath(selfCgroup: selfCgroup),
            let text = read(cgroupRoot + "/memory" + path + "/memory.limit_in_bytes"), let limit = UInt64(text),
            limit > 0,
            limit < physical
        {
            return limit
        }
        return physical
    }

    /// The process's cgroup v2 directory (where `memory.max` and `memory.events` are), or nil without one: the
    /// `0::/path` line of `/proc/self/cgroup`, under the unified hierarchy (`cgroupRoot`, or its `unified` folder
    /// on a hybrid system).
    public static func cgroupV2Directory(
        cgroupRoot: String = "/sys/fs/cgroup", selfCgroup: String = "/proc/self/cgroup"
    ) -> String? {
        guard let text = read(selfCgroup) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("0::") {
            let path = String(line.dropFirst(3))
            for base in [cgroupRoot, cgroupRoot + "/unified"] {
                let directory = path == "/" ? base : base + path
                if FileManager.default.fileExists(atPath: directory + "/memory.max")
                    || FileManager.default.fileExists(atPath: directory + "/memory.events")
                {
                    return directory
                }
            }
        }
        return nil
    }

    /// The path of the cgroup v1 memory controller's line in `/proc/self/cgroup` ("N:memory:/path").
    static func cgroupV1MemoryPath(selfCgroup: String) -> String? {
        guard let text = read(selfCgroup) else { return nil }
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            if fields.count == 3, fields[1].split(separator: ",").contains("memory") { return String(fields[2]) }
        }
        return nil
    }

    /// Resident memory now (`/proc/self/statm`'s second field, in pages), or nil when it cannot be read.
    public static func residentBytes(statm: String = "/proc/self/statm") -> UInt64? {
        guard let text = read(statm) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = UInt64(fields[1]) else { return nil }
        return pages * UInt64(max(1, sysconf(Int32(_SC_PAGESIZE))))
    }

    /// A small file's text, trimmed; nil when it cannot be read.
    static func read(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
