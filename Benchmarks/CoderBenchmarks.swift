/// Benchmarks of the coder layer (filled in by that layer's issue).
enum CoderBenchmarks {
    static func run() throws {
        print("no coder benchmarks yet")
    }
}
