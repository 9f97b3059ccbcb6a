import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// Memory on Linux (port addition, CACHE-13/CACHE-14's memory warning): the limit read from a cgroup, the
/// default memory-cache limit derived from it, and `SDMemoryPressureMonitor` posting the memory warning. The
/// cgroup and proc files are fakes in a temporary directory, so the tests run the same in any container.
final class LinuxMemoryTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "linux-memory")
    }

    override func tearDown() {
        directory.remove()
    }

    private func write(_ text: String, to relativePath: String) throws -> String {
        let url = directory.url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// The limit is the cgroup v2 `memory.max` of the process's cgroup; "max" (no limit) means physical memory;
    /// a cgroup v1 `memory.limit_in_bytes` counts when it is below physical memory.
    func test_LINUXMEM_limitComesFromTheCgroup() throws {
        let root = directory.path + "/cgroup"
        let selfCgroup = try write("0::/service.slice/app\n", to: "proc-self-cgroup")
        _ = try write("268435456\n", to: "cgroup/service.slice/app/memory.max")
        XCTAssertEqual(
            SDProcessMemory.cgroupV2Directory(cgroupRoot: root, selfCgroup: selfCgroup), root + "/service.slice/app")
        XCTAssertEqual(SDProcessMemory.limitBytes(cgroupRoot: root, selfCgroup: selfCgroup), 256 << 20)

        _ = try write("max\n", to: "cgroup/service.slice/app/memory.max")
        XCTAssertEqual(
            SDProcessMemory.limitBytes(cgroupRoot: root, selfCgroup: selfCgroup), ProcessInfo.processInfo.physicalMemory
        )

        let v1Root = directory.path + "/v1"
        let v1Self = try write("4:memory:/box\n0::/\n", to: "proc-self-cgroup-v1")
        _ = try write("\(64 << 20)\n", to: "v1/memory/box/memory.limit_in_bytes")
        XCTAssertNil(SDProcessMemory.cgroupV2Directory(cgroupRoot: v1Root, selfCgroup: v1Self))
        XCTAssertEqual(SDProcessMemory.limitBytes(cgroupRoot: v1Root, selfCgroup: v1Self), 64 << 20)
        _ = try write("9223372036854771712\n", to: "v1/memory/box/memory.limit_in_bytes")  // v1's "unlimited"
        XCTAssertEqual(
            SDProcessMemory.limitBytes(cgroupRoot: v1Root, selfCgroup: v1Self), ProcessInfo.processInfo.physicalMemory)

        let statm = try write("1000 250 30 1 0 200 0\n", to: "statm")
        XCTAssertEqual(SDProcessMemory.residentBytes(statm: statm), 250 * UInt64(sysconf(Int32(_SC_PAGESIZE))))
    }

    /// A new cache keeps a memory limit while `maxMemoryCost` is 0 (which stays 0, as in 4.4.8): a quarter of the
    /// process's memory at 4 bytes a pixel. The limit really evicts; `maxMemoryCost` set on the cache wins; 0
    /// as the default turns it off.
    func test_LINUXMEM_newCachesGetADefaultMemoryLimit() throws {
        let expected = Int(clamping: SDProcessMemory.limitBytes() / 4 / 4)
        let saved = SDImageCache.defaultMemoryCostLimit
        defer { SDImageCache.defaultMemoryCostLimit = saved }
        XCTAssertEqual(saved, expected)
        let cache = SDImageCache(namespace: "mem-default", diskCacheDirectory: directory.path)
        XCTAssertEqual(cache.maxMemoryCost, 0, "4.4.8's property keeps its default")
        XCTAssertEqual(cache.memoryCostLimitWhenUnset, expected)

        SDImageCache.defaultMemoryCostLimit = 250  // pixels: two 10×10 images fit, three do not
        let small = SDImageCache(namespace: "mem-small", diskCacheDirectory: directory.path)
        let image = {
            UIImage(pixelWidth: 10, pixelHeight: 10, pixels: [UInt8](repeating: 9, count: 400), hasAlpha: false)
        }
        for key in ["a", "b", "c"] { small.storeImage(toMemory: image(), forKey: key) }
        XCTAssertNil(small.imageFromMemoryCache(forKey: "a"), "the oldest went over the default limit")
        XCTAssertNotNil(small.imageFromMemoryCache(forKey: "c"))
        small.maxMemoryCost = 1_000
        for key in ["d", "e", "f"] { small.storeImage(toMemory: image(), forKey: key) }
        XCTAssertNotNil(small.imageFromMemoryCache(forKey: "c"), "maxMemoryCost wins over the default")

        SDImageCache.defaultMemoryCostLimit = 0
        XCTAssertEqual(
            SDImageCache(namespace: "mem-none", diskCacheDirectory: directory.path).memoryCostLimitWhenUnset, 0)
    }

    /// The monitor posts the memory warning when the cgroup's `memory.events` high/max/oom counters grow, and
    /// a cache in memory is emptied; unchanged counters post nothing.
    func test_LINUXMEM_cgroupPressureEmptiesTheMemoryCache() throws {
        let events = try write("low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\n", to: "cg/memory.events")
        var configuration = SDMemoryPressureMonitor.Configuration(
            cgroupDirectory: directory.path + "/cg", limitBytes: 1 << 30)
        configuration.interval = 0.02
        // Resident memory far below the limit.
        configuration.statmPath = try write("1000 10 0 0 0 0 0\n", to: "statm-low")
        let monitor = SDMemoryPressureMonitor(configuration: configuration)
        XCTAssertFalse(monitor.check(), "the first check only records the counters")
        XCTAssertFalse(monitor.check(), "nothing changed")

        let cache = SDImageCache(namespace: "mem-pressure", diskCacheDirectory: directory.path)
        cache.storeImage(
            toMemory: UIImage(pixelWidth: 2, pixelHeight: 2, pixels: [UInt8](repeating: 1, count: 16), hasAlpha: false),
            forKey: "kept until pressure")
        XCTAssertNotNil(cache.imageFromMemoryCache(forKey: "kept until pressure"))
        monitor.start()
        defer { monitor.stop() }
        try Data("low 0\nhigh 3\nmax 0\noom 0\noom_kill 0\n".utf8).write(to: URL(fileURLWithPath: events))
        XCTAssertTrue(
            waitUntil { cache.imageFromMemoryCache(forKey: "kept until pressure") == nil },
            "the memory warning emptied the cache")
        XCTAssertEqual(monitor.warningsPosted, 1)
        XCTAssertEqual(SDMemoryPressureMonitor.pressureEvents(in: "low 5\nhigh 3\nmax 2\noom 1\noom_kill 4\n"), 6)
    }

    /// Without cgroup events, resident memory above the fraction of the limit warns once per rise.
    func test_LINUXMEM_residentMemoryAboveTheLimitWarnsOncePerRise() throws {
        let page = UInt64(sysconf(Int32(_SC_PAGESIZE)))
        let statm = try write("1000 100 0 0 0 0 0\n", to: "statm-rise")
        var configuration = SDMemoryPressureMonitor.Configuration(cgroupDirectory: nil, limitBytes: 200 * page)
        configuration.statmPath = statm
        let monitor = SDMemoryPressureMonitor(configuration: configuration)
        XCTAssertFalse(monitor.check(), "100 of 200 pages: below 90 %")
        try Data("1000 190 0 0 0 0 0\n".utf8).write(to: URL(fileURLWithPath: statm))
        XCTAssertTrue(monitor.check(), "190 of 200 pages: above")
        XCTAssertFalse(monitor.check(), "still above: no second warning")
        try Data("1000 100 0 0 0 0 0\n".utf8).write(to: URL(fileURLWithPath: statm))
        XCTAssertFalse(monitor.check())
        try Data("1000 195 0 0 0 0 0\n".utf8).write(to: URL(fileURLWithPath: statm))
        XCTAssertTrue(monitor.check(), "a new rise warns again")
        XCTAssertEqual(monitor.warningsPosted, 2)
    }

    /// Port addition (divergence row 18): the warning is posted on the main queue, as UIKit posts it, when the
    /// program drains it; in a program whose main queue is not drained, the next check posts the waiting warning
    /// from the monitor's own thread, so the caches still empty; each warning is posted once either way.
    func test_LINUXMEM_warningIsPostedOnMainOrByTheNextCheck() throws {
        let page = UInt64(sysconf(Int32(_SC_PAGESIZE)))
        let statm = try write("1000 100 0 0 0 0 0\n", to: "statm-main")
        var configuration = SDMemoryPressureMonitor.Configuration(cgroupDirectory: nil, limitBytes: 200 * page)
        configuration.statmPath = statm
        let monitor = SDMemoryPressureMonitor(configuration: configuration)
        drainMainQueue()  // warnings other monitors handed to the main queue are posted before this test listens
        let posts = Recorder<Bool>()  // whether each post ran on the main thread
        let observer = NotificationCenter.default.addObserver(
            forName: UIApplication.didReceiveMemoryWarningNotification,
            object: nil, queue: nil
        ) { _ in posts.append(Thread.isMainThread) }
        defer { NotificationCenter.default.removeObserver(observer) }
        XCTAssertFalse(monitor.check())

        // A program that drains the main queue (this test does, while it waits): posted there.
        try Data("1000 190 0 0 0 0 0\n".utf8).write(to: URL(fileURLWithPath: statm))
        XCTAssertTrue(monitor.check())
        XCTAssertEqual(posts.count, 0, "handed to the main queue, not posted yet")
        XCTAssertTrue(waitUntil { posts.count == 1 })
        XCTAssertEqual(posts.values, [true])

        // The main queue is not drained between two checks (the test thread does not return to it): the next
        // check posts the waiting warning itself.
        try Data("1000 100 0 0 0 0 0\n".utf8).write(to: URL(fileURLWithPath: statm))
        XCTAssertFalse(monitor.check())
        try Data("1000 195 0 0 0 0 0\n".utf8).write(to: URL(fileURLWithPath: statm))
        XCTAssertTrue(monitor.check())
        XCTAssertEqual(posts.count, 1)
        // The next check runs on the monitor's queue in a program; here on a thread of its own.
        // (Not `DispatchQueue.sync`, which runs the block on the calling thread.)
        let checked = DispatchSemaphore(value: 0)
        let result = Locked<Bool?>(nil)
        Thread {
            result.value = monitor.check()
            checked.signal()
        }.start()
        checked.wait()
        XCTAssertEqual(result.value, false, "no new rise; the waiting warning is posted by this check")
        XCTAssertEqual(posts.values, [true, false], "posted on the checking thread, not main")
        drainMainQueue()
        XCTAssertEqual(posts.count, 2, "the block on the main queue posts nothing more")
        XCTAssertEqual(monitor.warningsPosted, 2)
    }

    /// The suite keeps the process's automatic monitor off (`SDPORT_MEMORY_MONITOR=off`, set before main by the
    /// test isolation), so the real cgroup cannot empty a cache under a test.
    func test_LINUXMEM_automaticMonitorIsOffInTheSuite() {
        XCTAssertEqual(ProcessInfo.processInfo.environment["SDPORT_MEMORY_MONITOR"], "off")
        XCTAssertFalse(SDMemoryPressureMonitor.isAutomatic)
        _ = SDImageCache(namespace: "no-monitor", diskCacheDirectory: directory.path)
        XCTAssertFalse(SDMemoryPressureMonitor.shared.isRunning)
    }
}
