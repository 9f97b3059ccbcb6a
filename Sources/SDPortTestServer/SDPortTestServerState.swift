import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// Everything one `SDPortTestServer` shares between the test's thread and its event loops: the routes, the
/// counters, the recorded requests and the open connections.
///
/// Thread safety: every stored property is guarded by `lock` (an `NIOLock`); methods take it for a short,
/// non-blocking critical section and never call out while holding it, so event loops are not held up.
final class SDPortTestServerState: @unchecked Sendable {
    private let lock = NIOLock()

    // Guarded by `lock`.
    private var routes: [String: SDPortTestRoute] = [:]
    private var directories: [(prefix: String, directory: URL)] = []
    private var hitsByPath: [String: Int] = [:]
    private var total = 0
    private var inFlight = 0
    private var maxInFlight = 0
    private var accepted = 0
    private var recorded: [String: [SDPortRecordedRequest]] = [:]
    private var connections: [ObjectIdentifier: any Channel] = [:]
    private var acceptingConnections = true

    /// The path part of a request target or path: everything before "?" (and "#").
    static func pathWithoutQuery(_ target: String) -> String {
        var end = target.endIndex
        if let mark = target.firstIndex(where: { $0 == "?" || $0 == "#" }) { end = mark }
        return String(target[..<end])
    }

    // MARK: Routes

    func setRoute(_ route: SDPortTestRoute, for path: String) {
        let key = Self.pathWithoutQuery(path)
        lock.withLock { routes[key] = route }
    }

    func addDirectory(_ directory: URL, under prefix: String) {
        var normalized = prefix.hasPrefix("/") ? prefix : "/" + prefix
        if !normalized.hasSuffix("/") { normalized += "/" }
        lock.withLock {
            directories.append((normalized, directory))
            // Longest prefix first, so a nested folder wins over its parent.
            directories.sort { $0.prefix.count > $1.prefix.count }
        }
    }

    /// The route for a request path (without query): an exact route, else a file in a served directory,
    /// else nil (the server answers 404).
    func route(forPath path: String) -> SDPortTestRoute? {
        let (exact, folders) = lock.withLock { (routes[path], directories) }
        if let exact { return exact }
        for folder in folders where path.hasPrefix(folder.prefix) {
            let relative = String(path.dropFirst(folder.prefix.count))
            let components = relative.split(separator: "/", omittingEmptySubsequences: true)
            // Never serve anything outside the folder.
            guard !components.isEmpty, !components.contains(where: { $0 == ".." || $0 == "." }) else { continue }
            let decoded = components.map { String($0).removingPercentEncoding ?? String($0) }
            let file = decoded.reduce(folder.directory) { $0.appendingPathComponent($1) }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return .file(file)
            }
        }
        return nil
    }

    // MARK: Requests and counters

    /// A request head arrived: count it, record it, and count it in flight.
    func requestArrived(_ request: SDPortRecordedRequest) {
        let key = Self.pathWithoutQuery(request.path)
        lock.withLock {
            hitsByPath[key, default: 0] += 1
            total += 1
            recorded[key, default: []].append(request)
            inFlight += 1
            maxInFlight = max(maxInFlight, inFlight)
        }
    }

    /// A request's response ended (or its connection closed first).
    func requestFinished() {
        lock.withLock { inFlight -= 1 }
    }

    func hits(_ path: String) -> Int {
        let key = Self.pathWithoutQuery(path)
        return lock.withLock { hitsByPath[key] ?? 0 }
    }

    func requests(_ path: String) -> [SDPortRecordedRequest] {
        let key = Self.pathWithoutQuery(path)
        return lock.withLock { recorded[key] ?? [] }
    }

    var totalHits: Int { lock.withLock { total } }
    var maxConcurrentRequests: Int { lock.withLock { maxInFlight } }
    var requestsInFlight: Int { lock.withLock { inFlight } }
    var acceptedConnections: Int { lock.withLock { accepted } }

    /// Forgets hits, recorded requests and accepted connections; the in-flight maximum restarts from the
    /// requests in flight now (they are real and will still end).
    func resetCounters() {
        lock.withLock {
            hitsByPath = [:]
            total = 0
            recorded = [:]
            accepted = 0
            maxInFlight = inFlight
        }
    }

    // MARK: Connections

    /// Registers a new connection; false when the server is stopping (the caller closes it).
    func connectionOpened(_ channel: any Channel) -> Bool {
        lock.withLock {
            guard acceptingConnections else { return false }
            connections[ObjectIdentifier(channel)] = channel
            accepted += 1
            return true
        }
    }

    func connectionClosed(_ channel: any Channel) {
        _ = lock.withLock { connections.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    func startAccepting() {
        lock.withLock { acceptingConnections = true }
    }

    /// Stops accepting connections and hands back the open ones, for `stop()` to close.
    func stopAccepting() -> [any Channel] {
        lock.withLock {
            acceptingConnections = false
            return Array(connections.values)
        }
    }
}
