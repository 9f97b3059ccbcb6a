import Foundation

/// Posts `UIApplication.didReceiveMemoryWarningNotification` when Linux says memory is short, so the memory
/// caches empty themselves as they do on iOS (CACHE-13's memory warning, CACHE-14).
///
/// Port addition: on iOS UIKit posts the memory warning; a Linux process gets no such signal. The monitor checks,
/// every `interval` seconds on a background queue:
/// - the cgroup v2 `memory.events` counters `high`, `max` and `oom`: when one of them grew since the last
///   check, the cgroup hit its limit and the kernel is reclaiming or refusing memory — a memory warning;
/// - resident memory against `residentFraction` of the limit (`SDProcessMemory.limitBytes`): one warning each
///   time it rises above — the only signal under cgroup v1, without a cgroup, or in a cgroup with no limit.
/// The notification is posted on the main queue, as UIKit posts it, so observers run there. A Linux program need
/// not drain the main queue (a server, a command-line tool blocked in a wait): when the next check finds the
/// previous warning still waiting there, the monitor posts it itself, from its own queue, so the caches are emptied
/// anyway (`AutoPurgeCache` empties itself on the posting thread); the waiting block then posts nothing. Each
/// warning is posted once.
///
/// `shared` starts when the first `SDImageCache` is made, unless the program set `isAutomatic` to false before,
/// or the environment has `SDPORT_MEMORY_MONITOR=off` (the test suite sets it, so a real memory spike cannot empty
/// a cache under a test; tests that need a monitor make their own). A program can also `stop()` it, or make its own
/// monitor. State is guarded by `lock`.
public final class SDMemoryPressureMonitor: @unchecked Sendable {
    /// Where the monitor looks and how often.
    public struct Configuration: Sendable {
        /// The cgroup v2 directory holding `memory.events`; nil: none (resident memory is watched instead).
        public var cgroupDirectory: String?
        /// Seconds between checks.
        public var interval: TimeInterval = 1
        /// Without cgroup events: the share of `limitBytes` resident memory may reach before a warning.
        public var residentFraction: Double = 0.9
        /// The memory the process may use (for the resident-memory check).
        public var limitBytes: UInt64
        /// Where resident memory is read (`/proc/self/statm` format).
        public var statmPath = "/proc/self/statm"

        /// Watches `cgroupDirectory`'s `memory.events` if given, else resident memory against `limitBytes`.
        public init(cgroupDirectory: String?, limitBytes: UInt64) {
            self.cgroupDirectory = cgroupDirectory
            self.limitBytes = limitBytes
        }

        /// This process's cgroup and limit.
        public static var current: Configuration {
            Configuration(
                cgroupDirectory: SDProcessMemory.cgroupV2Directory(), limitBytes: SDProcessMemory.limitBytes())
        }
    }

    /// The process's monitor, started with the first `SDImageCache` (see `isAutomatic`).
    public static let shared = SDMemoryPressureMonitor(configuration: .current)

    /// Whether the first `SDImageCache` starts `shared`; set it to false before making a cache to keep it off.
    /// Starts false when the environment has `SDPORT_MEMORY_MONITOR=off`.
    public static var isAutomatic: Bool {
        get { automatic.wrappedValue }
        set { automatic.wrappedValue = newValue }
    }
    private static let automatic = SDLocked(
        wrappedValue: ProcessInfo.processInfo.environment["SDPORT_MEMORY_MONITOR"] != "off")

    /// What the monitor watches and how often.
    public let configuration: Configuration
    private let queue = DispatchQueue(label: "com.hackemist.SDMemoryPressureMonitor", qos: .utility)

    /// Guards everything below.
    private let lock = NSLock()
    private var timer: DispatchSourceTimer?
    private var lastEventCount: UInt64?
    private var wasAboveResidentLimit = false
    private var _warningsPosted = 0
    /// The warning handed to the main queue and not posted yet (its number), if any.
    private var waitingOnMain: Int?
    /// Numbers the warnings handed to the main queue.
    private var warningNumber = 0

    /// A stopped monitor; `start()` starts it.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    deinit {
        timer?.cancel()
    }

    /// Starts `shared` if `isAutomatic` (called by `SDImageCache`'s initializer).
    static func startSharedIfAutomatic() {
        if isAutomatic { shared.start() }
    }

    /// Whether the monitor is checking (between `start()` and `stop()`).
    public var isRunning: Bool { lock.withLock { timer != nil } }

    /// How many memory warnings this monitor has posted.
    public var warningsPosted: Int { lock.withLock { _warningsPosted } }

    /// Starts checking every `interval` seconds (idempotent). The first check only records the counters.
    public func start() {
        let source: DispatchSourceTimer? = lock.withLock {
            guard timer == nil else { return nil }
            let source = DispatchSource.makeTimerSource(queue: queue)
            timer = source
            return source
        }
        guard let source else { return }
        let interval = DispatchTimeInterval.milliseconds(max(1, Int(configuration.interval * 1000)))
        source.schedule(deadline: .now(), repeating: interval, leeway: .milliseconds(10))
        source.setEventHandler { [weak self] in self?.check() }
        source.resume()
    }

    /// Stops checking; `start()` starts again.
    public func stop() {
        let source = lock.withLock { () -> DispatchSourceTimer? in
            defer { timer = nil }
            return timer
        }
        source?.cancel()
    }

    /// One check; posts the memory warning when memory is short (see the type's documentation). Returns whether
    /// it posted.
    @discardableResult
    public func check() -> Bool {
        postWarningStillWaitingOnMain()
        // Both signals are read every time: a cgroup without a limit (memory.max "max") never counts events, so
        // resident memory against physical memory still has to be watched there.
        var eventsGrew = false
        if let directory = configuration.cgroupDirectory,
            let events = SDProcessMemory.read(directory + "/memory.events")
        {
            let count = Self.pressureEvents(in: events)
            eventsGrew = lock.withLock {
                defer { lastEventCount = count }
                return lastEventCount.map { count > $0 } ?? false
            }
        }
        var residentRose = false
        if let resident = SDProcessMemory.residentBytes(statm: configuration.statmPath) {
            let above = Double(resident) > Double(configuration.limitBytes) * configuration.residentFraction
            residentRose = lock.withLock {
                defer { wasAboveResidentLimit = above }
                return above && !wasAboveResidentLimit
            }
        }
        let shouldWarn = eventsGrew || residentRose
        guard shouldWarn else { return false }
        lock.withLock { _warningsPosted += 1 }
        postOnMain()
        return true
    }

    /// Hands a warning to the main queue, where UIKit posts it.
    private func postOnMain() {
        let number: Int = lock.withLock {
            warningNumber += 1
            waitingOnMain = warningNumber
            return warningNumber
        }
        DispatchQueue.main.async {
            if self.claimWaitingWarning(number) { Self.postWarning() }
        }
    }

    /// A warning handed to the main queue at an earlier check and still not posted: the main queue is not being
    /// drained, so it is posted here instead.
    private func postWarningStillWaitingOnMain() {
        guard let number = lock.withLock({ waitingOnMain }), claimWaitingWarning(number) else { return }
        Self.postWarning()
    }

    /// Takes the waiting warning `number` for posting; false when it was posted already (by the other path).
    private func claimWaitingWarning(_ number: Int) -> Bool {
        lock.withLock {
            guard waitingOnMain == number else { return false }
            waitingOnMain = nil
            return true
        }
    }

    /// Posts with the application as `object`, as UIKit posts it.
    private static func postWarning() {
        NotificationCenter.default.post(
            name: UIApplication.didReceiveMemoryWarningNotification, object: UIApplication.shared)
    }

    /// The sum of the `high`, `max` and `oom` counters of a `memory.events` file.
    public static func pressureEvents(in text: String) -> UInt64 {
        var total: UInt64 = 0
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, ["high", "max", "oom"].contains(fields[0]), let value = UInt64(fields[1]) {
                total &+= value
            }
        }
        return total
    }
}
