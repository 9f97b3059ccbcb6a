import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import SDPortTimeline
import XCTest

/// The timeline (`sdport load --timeline`, `TimelineRecorder`, `ChromeTrace`): a file in the Trace Event Format that
/// Perfetto and Chromium's `about:tracing` open as it is. Checked here: the fields the format requires, a named
/// track for every event, events on each track that nest (each one inside the one before it or after its end), and
/// each load's steps in the order of the ten-step flow. Structure only: no timing is asserted.
final class TimelineTests: XCTestCase {
    private var server: SDPortTestServer!
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        server = SDPortTestServer()
        try server.start()
        server.serveDirectory(TestFixtures.directory, under: "/")
        directory = try TemporaryDirectory(prefix: "sdport-timeline")
    }

    override func tearDown() {
        server?.stop()
        directory?.remove()
        server = nil
        directory = nil
    }

    /// A cold `sdport load` (a process of its own, a real loopback download) writes a trace with the required
    /// fields, named tracks that nest, the timed steps (decode) as spans, the transfer thread's work, and the
    /// manager's steps 2 to 9 in the flow's order.
    func test_TIMELINE_loadWritesATraceWhoseTracksNestAndWhoseStepsFollowTheFlow() throws {
        let path = directory.url.appendingPathComponent("load.json").path
        let url = server.url("/gray.jpg").absoluteString
        let result = try CLIProcess.run(["load", url, "--cache-dir", directory.path + "/cache", "--timeline", path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let trace = try TraceFile(path: path)
        trace.assertWellFormed()
        trace.assertTracksNest()

        let steps = trace.steps(forKey: url)
        XCTAssertEqual(steps, steps.sorted(), "steps out of the flow's order: \(steps)")
        XCTAssertEqual(Array(Set(steps)).sorted(), Array(2...9))
        let decode = try XCTUnwrap(trace.complete.first { $0.category == "step" && $0.step == 7 && $0.key == url })
        XCTAssertGreaterThan(decode.duration, 0, "the decode is timed: a span, not a moment")
        XCTAssertTrue(trace.trackName(of: decode).hasPrefix("coder queue"), trace.trackName(of: decode))
        let transfer = trace.complete.filter { $0.name == "libcurl" }
        XCTAssertFalse(transfer.isEmpty, "the transfer thread's work is on the timeline")
        XCTAssertTrue(transfer.allSatisfy { trace.trackName(of: $0).hasPrefix("transfer thread") })
        XCTAssertTrue(
            trace.complete.contains { $0.name == "disk write" && trace.trackName(of: $0) == "cache io queue" })
    }

    /// Twelve downloads, three at a time, recorded in this process: every operation's coder queue has the same
    /// label, and the trace gives them numbered tracks. An operation ends after its decode (4.4.8's `done` inside
    /// the decode block), so no more than three coder queues ever work at once: at most three coder tracks, each
    /// nesting, and each download's steps 5, 6, 7 in order.
    func test_TIMELINE_concurrentOperationsGetOneCoderTrackEachAtMostConcurrencyOfThem() throws {
        let downloader = SDWebImageDownloader()
        downloader.maxConcurrentDownloads = 3
        downloader.completionQueue = DispatchQueue(label: "sdport.test.timeline", attributes: .concurrent)
        let urls = (0..<12).map { server.url("/baseline.jpg?\($0)") }
        let recorder = TimelineRecorder()
        recorder.start()
        let finished = expectation(description: "every download finished")
        finished.expectedFulfillmentCount = urls.count
        for url in urls {
            downloader.downloadImage(with: url, options: [], progress: nil) { image, _, error, done in
                guard done else { return }
                XCTAssertNotNil(image, "\(error.map(String.init(describing:)) ?? "no error")")
                finished.fulfill()
            }
        }
        wait(for: [finished], timeout: 30)
        let path = directory.url.appendingPathComponent("downloads.json").path
        try recorder.write(to: path, processName: "test")
        recorder.stop()
        let trace = try TraceFile(path: path)
        trace.assertWellFormed()
        trace.assertTracksNest()
        let coderTracks = Set(trace.complete.filter { trace.trackName(of: $0).hasPrefix("coder queue") }.map(\.track))
        XCTAssertGreaterThan(coderTracks.count, 0)
        XCTAssertLessThanOrEqual(coderTracks.count, 3, "more coder queues at work at once than downloads running")
        for url in urls {
            let steps = trace.steps(forKey: url.absoluteString)
            XCTAssertEqual(steps, [5, 6, 7], "\(url)")
        }
    }

    /// Events placed by hand where a real run puts them only by chance: three operations whose coder queues (one
    /// label) work at the same time, and two io queues (two caches, one label prefix) whose disk writes overlap
    /// without one inside the other. The trace gives each operation's coder queue a track of its own for all its
    /// events, splits the io lane in two, and every track nests.
    func test_TIMELINE_queuesSharingALabelAreSplitIntoTracksThatNest() throws {
        let origin = Date(timeIntervalSince1970: 1_000)
        func at(_ milliseconds: Double) -> Date { origin.addingTimeInterval(milliseconds / 1000) }
        let coder = "com.hackemist.SDWebImageDownloaderOperationCoderQueue"
        var events: [TimelineEvent] = []
        for (index, key) in ["a", "b", "c"].enumerated() {
            let begin = Double(index)  // 0, 1, 2 ms: each decode overlaps the others
            events.append(
                TimelineEvent(
                    step: 7, name: "7. coder: decode", category: "step", key: key, queue: coder,
                    thread: UInt64(10 + index), start: at(begin), end: at(begin + 5)))
            events.append(
                TimelineEvent(
                    step: 7, name: "7. coder: decode", category: "step", key: key, queue: coder,
                    thread: UInt64(10 + index), start: at(begin + 3), end: at(begin + 3)))
        }
        events.append(
            TimelineEvent(
                step: 8, name: "disk write", category: "work", key: "a", queue: SDImageCache.ioQueueLabel,
                thread: 20, start: at(10), end: at(14)))
        events.append(
            TimelineEvent(
                step: 8, name: "disk write", category: "work", key: "b", queue: SDImageCache.ioQueueLabel,
                thread: 21, start: at(12), end: at(16)))
        let path = directory.url.appendingPathComponent("placed.json").path
        try ChromeTrace(events: events, processName: "placed").data().write(to: URL(fileURLWithPath: path))
        let trace = try TraceFile(path: path)
        trace.assertWellFormed()
        trace.assertTracksNest()
        let coderEvents = trace.complete.filter { $0.name == "7. coder: decode" }
        XCTAssertEqual(Set(coderEvents.map(\.track)).count, 3, "one track per coder queue at work at once")
        for key in ["a", "b", "c"] {
            XCTAssertEqual(
                Set(coderEvents.filter { $0.key == key }.map(\.track)).count, 1, "\(key)'s queue stays on one track")
        }
        XCTAssertEqual(
            Set(trace.complete.filter { $0.name == "disk write" }.map(trace.trackName)),
            ["cache io queue 1", "cache io queue 2"])
    }
}

/// A trace file read back as plain JSON, with the checks the format asks for.
private struct TraceFile {
    struct Complete {
        let name: String
        let category: String
        let track: Int
        let start: Double
        let duration: Double
        let step: Int?
        let key: String?
    }

    let events: [[String: Any]]
    let complete: [Complete]
    let trackNames: [Int: String]

    init(path: String) throws {
        let object =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        events = try XCTUnwrap(object?["traceEvents"] as? [[String: Any]], "no traceEvents array")
        var names: [Int: String] = [:]
        for event in events where event["ph"] as? String == "M" && event["name"] as? String == "thread_name" {
            if let tid = event["tid"] as? Int, let name = (event["args"] as? [String: Any])?["name"] as? String {
                names[tid] = name
            }
        }
        trackNames = names
        complete = events.filter { $0["ph"] as? String == "X" }.map { event in
            let args = event["args"] as? [String: Any]
            return Complete(
                name: event["name"] as? String ?? "", category: event["cat"] as? String ?? "",
                track: event["tid"] as? Int ?? -1, start: (event["ts"] as? NSNumber)?.doubleValue ?? -1,
                duration: (event["dur"] as? NSNumber)?.doubleValue ?? -1, step: args?["step"] as? Int,
                key: args?["key"] as? String)
        }
    }

    func trackName(of event: Complete) -> String { trackNames[event.track] ?? "" }

    /// Every event has `ph`, `pid`, `tid` and `name`; every complete event a `ts` and a `dur` of zero or more;
    /// one `process_name`; a `thread_name` for every track an event is on.
    func assertWellFormed(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(complete.isEmpty, "no complete events", file: file, line: line)
        for event in events {
            for field in ["ph", "pid", "tid", "name"] where event[field] == nil {
                XCTFail("an event without \(field): \(event)", file: file, line: line)
            }
        }
        for event in events where event["ph"] as? String == "X" {
            XCTAssertNotNil(event["ts"] as? NSNumber, "\(event)", file: file, line: line)
            XCTAssertNotNil(event["dur"] as? NSNumber, "\(event)", file: file, line: line)
        }
        XCTAssertTrue(complete.allSatisfy { $0.start >= 0 && $0.duration >= 0 }, file: file, line: line)
        XCTAssertEqual(
            events.filter { $0["ph"] as? String == "M" && $0["name"] as? String == "process_name" }.count, 1,
            file: file, line: line)
        for track in Set(complete.map(\.track)) {
            XCTAssertNotNil(trackNames[track], "track \(track) has no thread_name", file: file, line: line)
        }
    }

    /// On each track, in start order (the longer first at a tie), an event starts at or after the end of every
    /// open event it is not inside.
    func assertTracksNest(file: StaticString = #filePath, line: UInt = #line) {
        let tolerance = 0.001  // microseconds: the file's numbers are decimal
        for (track, events) in Dictionary(grouping: complete, by: \.track) {
            var open: [Double] = []  // ends of the enclosing events
            for event in events.sorted(by: { ($0.start, -$0.duration) < ($1.start, -$1.duration) }) {
                while let end = open.last, end <= event.start + tolerance { open.removeLast() }
                let end = event.start + event.duration
                if let enclosing = open.last, end > enclosing + tolerance {
                    XCTFail(
                        "on \(trackNames[track] ?? "\(track)"), \(event.name) at \(event.start) ends after the event it starts in",
                        file: file, line: line)
                }
                open.append(end)
            }
        }
    }

    /// The step numbers of `key`'s steps (not marks or work), in start order.
    func steps(forKey key: String) -> [Int] {
        complete.filter { $0.category == "step" && $0.key == key }
            .sorted { ($0.start, $0.step ?? 0) < ($1.start, $1.step ?? 0) }
            .compactMap(\.step)
    }
}
