import Foundation
import SDPort
import SDPortTimeline

/// `sdport-bench downloader --timeline FILE`: the pipeline of `DownloaderBenchmarks` (200 JPEGs, 6 at a time) run
/// once after a warm-up with a `TimelineRecorder` on, written as a Chrome trace, and where its time went: how long
/// each lane worked, and for how much of the run none, one, or two and more of the traced lanes were busy.
enum PipelineTimeline {
    static func run(writingTo path: String) throws {
        let fixture = try DownloaderBenchmarks.fixture()
        try DownloaderBenchmarks.runDownloader(urls: fixture.imageURLs, expectImages: true)  // warm-up
        let recorder = TimelineRecorder()
        recorder.start()
        try DownloaderBenchmarks.runDownloader(urls: fixture.imageURLs, expectImages: true)
        let events = recorder.stop()
        let trace = ChromeTrace(events: events, processName: "sdport-bench downloader: 200 JPEGs, 6 at a time")
        try trace.data().write(to: URL(fileURLWithPath: path), options: .atomic)
        print("timeline: \(path), \(events.count) events (open it in Perfetto or about:tracing)")
        printSummary(trace.object())
    }

    /// Busy time per track, and how many tracks worked at once, from the trace's complete events.
    static func printSummary(_ object: [String: Any]) {
        let events = object["traceEvents"] as? [[String: Any]] ?? []
        var names: [Int: String] = [:]
        for event in events where event["ph"] as? String == "M" && event["name"] as? String == "thread_name" {
            names[event["tid"] as? Int ?? 0] = (event["args"] as? [String: Any])?["name"] as? String
        }
        var spans: [(tid: Int, start: Double, end: Double)] = []
        for event in events where event["ph"] as? String == "X" {
            let start = event["ts"] as? Double ?? 0
            let duration = event["dur"] as? Double ?? 0
            if duration > 0 { spans.append((event["tid"] as? Int ?? 0, start, start + duration)) }
        }
        guard let first = events.compactMap({ $0["ph"] as? String == "X" ? $0["ts"] as? Double : nil }).min(),
            let last = spans.map(\.end).max()
        else { return }
        let wall = last - first
        print(String(format: "traced run: %.1f ms from the first event to the last", wall / 1000))
        var busy: [Int: Double] = [:]
        for span in spans { busy[span.tid, default: 0] += span.end - span.start }
        for (tid, time) in busy.sorted(by: { $0.key < $1.key }) {
            print(
                String(
                    format: "  %@ busy %6.1f ms (%4.1f %%)",
                    (names[tid] ?? "track \(tid)").padding(toLength: 30, withPad: " ", startingAt: 0),
                    time / 1000, 100 * time / wall))
        }
        // How many tracks work at each moment: a sweep over the spans' starts and ends (outermost spans only).
        var edges: [(Double, Int)] = []
        for span in outermost(spans) { edges += [(span.start, 1), (span.end, -1)] }
        edges.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        var level = 0
        var previous = first
        var timeAt: [Int: Double] = [:]
        for (time, change) in edges {
            timeAt[min(level, 2), default: 0] += time - previous
            level += change
            previous = time
        }
        timeAt[0, default: 0] += last - previous
        print(
            String(
                format: "traced lanes working: none %.1f ms, one %.1f ms, two or more %.1f ms",
                (timeAt[0] ?? 0) / 1000, (timeAt[1] ?? 0) / 1000, (timeAt[2] ?? 0) / 1000))
    }

    /// The spans not inside another span of their track.
    static func outermost(_ spans: [(tid: Int, start: Double, end: Double)]) -> [(tid: Int, start: Double, end: Double)]
    {
        var result: [(tid: Int, start: Double, end: Double)] = []
        var openEnd: [Int: Double] = [:]
        for span in spans.sorted(by: { ($0.start, -$0.end) < ($1.start, -$1.end) }) {
            if let end = openEnd[span.tid], span.end <= end { continue }
            openEnd[span.tid] = span.end
            result.append(span)
        }
        return result
    }
}
