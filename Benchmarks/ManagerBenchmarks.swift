/// Benchmarks of the manager layer (filled in by that layer's issue).
enum ManagerBenchmarks {
    static func run() throws {
        print("no manager benchmarks yet")
    }
}
