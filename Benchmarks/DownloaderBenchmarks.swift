/// Benchmarks of the downloader layer (filled in by that layer's issue).
enum DownloaderBenchmarks {
    static func run() throws {
        print("no downloader benchmarks yet")
    }
}
