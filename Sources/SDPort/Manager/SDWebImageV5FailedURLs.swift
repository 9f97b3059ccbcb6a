import Foundation

/// The URLs that failed in 5.x-style loads, per manager.
///
/// Port-only bookkeeping: 5.x keeps one failed-URL set in the manager. The port's 4.4.8 manager owns its set
/// privately (it can be read and emptied, not added to from outside), so URLs that fail in the 5.x flow are
/// recorded here, per manager, and a 5.x load treats a URL as failed when either list has it. `removeFailedURL` /
/// `removeAllFailedURLs` of the manager clear only its own list; `SDWebImageManager.removeV5FailedURL(_:)` and
/// `removeAllV5FailedURLs()` clear this one. Entries of a manager that has gone away are dropped.
///
/// `entries` is guarded by `lock`.
final class SDWebImageV5FailedURLs: @unchecked Sendable {
    static let shared = SDWebImageV5FailedURLs()

    private final class Entry {
        weak var manager: SDWebImageManager?
        var urls = Set<URL>()
        init(manager: SDWebImageManager) { self.manager = manager }
    }

    /// Guards `entries`.
    private let lock = NSLock()
    private var entries: [ObjectIdentifier: Entry] = [:]

    func contains(_ url: URL, for manager: SDWebImageManager) -> Bool {
        lock.withLock { entry(for: manager, creating: false)?.urls.contains(url) ?? false }
    }

    func insert(_ url: URL, for manager: SDWebImageManager) {
        lock.withLock { _ = entry(for: manager, creating: true)?.urls.insert(url) }
    }

    func remove(_ url: URL, for manager: SDWebImageManager) {
        lock.withLock { _ = entry(for: manager, creating: false)?.urls.remove(url) }
    }

    func removeAll(for manager: SDWebImageManager) {
        lock.withLock { entry(for: manager, creating: false)?.urls.removeAll() }
    }

    func urls(for manager: SDWebImageManager) -> Set<URL> {
        lock.withLock { entry(for: manager, creating: false)?.urls ?? [] }
    }

    /// Call with `lock` held. An entry whose manager is gone (its identifier reused) is replaced.
    private func entry(for manager: SDWebImageManager, creating: Bool) -> Entry? {
        let id = ObjectIdentifier(manager)
        if let entry = entries[id], entry.manager === manager { return entry }
        entries = entries.filter { $0.value.manager != nil }
        guard creating else { return nil }
        let entry = Entry(manager: manager)
        entries[id] = entry
        return entry
    }
}
