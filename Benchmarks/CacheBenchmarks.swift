/// Benchmarks of the cache layer (filled in by that layer's issue).
enum CacheBenchmarks {
    static func run() throws {
        print("no cache benchmarks yet")
    }
}
