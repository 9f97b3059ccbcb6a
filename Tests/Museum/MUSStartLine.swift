import Synchronization

/// A start line for two threads that must not synchronise with each other (MUS-10): each spins on a relaxed
/// atomic, which ThreadSanitizer does not count as an ordering, until the test lets them go.
final class MUSStartLine: Sendable {
    private let go = Atomic<Bool>(false)

    func release() { go.store(true, ordering: .relaxed) }

    func waitForStart() {
        while !go.load(ordering: .relaxed) {}
    }
}
