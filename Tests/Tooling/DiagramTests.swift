import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

/// The trace's queues and threads, and the diagrams of `Docs/diagrams` that `sdport diagram` draws from real runs:
/// the committed ones must have the structure (lanes, arrows, step names) a fresh run gives.
final class DiagramTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "sdport-diagram")
    }

    override func tearDown() {
        directory?.remove()
        directory = nil
    }

    /// The generator's caches and temporary files go to the test's directory.
    private var environment: [String: String] { ["TMPDIR": directory.path] }

    private var committedDiagrams: URL { CLIProcess.packageRoot.appendingPathComponent("Docs/diagrams") }

    // MARK: The trace

    /// A cold load through a view reports each step on the queue the flow runs it on: the view, manager and
    /// memory steps on the main queue, the disk query on the cache's io queue, the operation's start on the
    /// downloader's queue, the response on the session's delegate queue, the decode on the operation's coder queue.
    @MainActor
    func test_TRACE_eachStepReportsTheQueueItRanOn() throws {
        let env = try ManagerTestEnvironment()
        defer { env.tearDown() }
        let url = env.serveOrFail("baseline.jpg")
        let events = Recorder<SDWebImageTraceEvent>()
        let token = SDWebImageTrace.addObserver(includingMarks: true) { event in
            if event.key == url.absoluteString { events.append(event) }
        }
        defer { SDWebImageTrace.removeObserver(token) }
        let done = Recorder<Bool>()
        let imageView = UIImageView()  // the view holds its load: it must outlive it
        imageView.sd_setImage(with: url, context: [SDWebImageExternalCustomManagerKey: env.manager]) { image, _, _, _ in
            done.append(image != nil)
        }
        XCTAssertTrue(waitUntil { done.count == 1 && events.values.contains { $0.step == .viewDisplay } })
        XCTAssertEqual(done.values, [true])
        XCTAssertNotNil(imageView.image)

        func queue(of step: SDWebImageFlowStep, mark: SDWebImageFlowMark? = nil) -> String? {
            events.values.first { $0.step == step && $0.mark == mark }?.queue
        }
        let main = "com.apple.main-thread"
        XCTAssertEqual(queue(of: .viewSetImage), main)
        XCTAssertEqual(queue(of: .memoryQuery), main)
        XCTAssertEqual(queue(of: .diskQuery), SDImageCache.ioQueueLabel)
        XCTAssertEqual(queue(of: .downloadStart, mark: .operationStart), "com.hackemist.SDWebImageDownloader")
        XCTAssertEqual(queue(of: .downloadResponse), "com.hackemist.SDWebImageCurlSession.delegateQueue")
        XCTAssertEqual(queue(of: .decode), "com.hackemist.SDWebImageDownloaderOperationCoderQueue")
        XCTAssertEqual(queue(of: .managerCompletion), main)
        let decodeThread = events.values.first { $0.step == .decode }?.thread
        XCTAssertNotNil(decodeThread)
        XCTAssertNotEqual(decodeThread, 0)
        XCTAssertEqual(events.values.first { $0.step == .viewSetImage }?.isMainThread, true)
    }

    /// Marks go only to observers that ask for them: a listener of the ten steps still sees each step once.
    @MainActor
    func test_TRACE_marksReachOnlyObserversThatAskForThem() throws {
        let env = try ManagerTestEnvironment()
        defer { env.tearDown() }
        let url = env.serveOrFail("baseline.jpg")
        let steps = Recorder<SDWebImageTraceEvent>()
        let all = Recorder<SDWebImageTraceEvent>()
        let stepsToken = SDWebImageTrace.addObserver { if $0.key == url.absoluteString { steps.append($0) } }
        let allToken = SDWebImageTrace.addObserver(includingMarks: true) {
            if $0.key == url.absoluteString { all.append($0) }
        }
        defer {
            SDWebImageTrace.removeObserver(stepsToken)
            SDWebImageTrace.removeObserver(allToken)
        }
        XCTAssertNotNil(env.load(url).calls.last?.image)
        XCTAssertTrue(waitUntil { steps.values.contains { $0.step == .managerCompletion } })
        XCTAssertTrue(steps.values.allSatisfy { $0.mark == nil })
        XCTAssertEqual(all.values.filter { $0.mark == .operationStart }.count, 1)
    }

    /// `load --trace` prints the queue and thread of each step.
    func test_TRACE_loadTracePrintsEachStepsQueue() throws {
        let server = SDPortTestServer()
        try server.start()
        defer { server.stop() }
        server.serveDirectory(TestFixtures.directory, under: "/")
        let result = try CLIProcess.run(
            [
                "load", server.url("/gray.jpg").absoluteString, "--cache-dir", directory.path,
                "--trace",
            ], environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        func line(_ fragment: String) -> String? { result.stdoutLines.first { $0.contains(fragment) } }
        XCTAssertEqual(line("cache: disk query")?.contains("cache io queue, thread "), true, result.stdout)
        XCTAssertEqual(line("operation: start")?.contains("download queue, thread "), true, result.stdout)
        XCTAssertEqual(
            line("operation: response and data")?.contains("session delegate queue, thread "), true, result.stdout)
        XCTAssertEqual(line("coder: decode")?.contains("coder queue, thread "), true, result.stdout)
        XCTAssertEqual(line("manager: completion")?.contains("main queue, thread "), true, result.stdout)
    }

    // MARK: The diagrams

    /// CI's diagram check: the committed diagrams have the lanes, arrows and step names of a fresh run.
    func test_DIAG_committedDiagramsMatchAFreshRun() throws {
        let result = try CLIProcess.run(
            ["diagram", "--all", "--check", committedDiagrams.path], environment: environment)
        XCTAssertEqual(
            result.status, 0,
            "regenerate with `swift run sdport diagram --all --output Docs/diagrams`:\n"
                + result.stdout + result.stderr)
        XCTAssertEqual(result.stdoutLines.filter { $0.hasPrefix("same structure: ") }.count, 11, result.stdout)
    }

    /// A copy of Docs/diagrams in the temp dir, with the file `name` changed by `edit`.
    private func copyOfCommittedDiagrams(editing name: String, _ edit: (String) -> String) throws -> URL {
        let copy = directory.url.appendingPathComponent("diagrams")
        try FileManager.default.copyItem(at: committedDiagrams, to: copy)
        let file = copy.appendingPathComponent(name)
        try edit(try String(contentsOf: file, encoding: .utf8)).write(to: file, atomically: true, encoding: .utf8)
        return copy
    }

    /// The check fails, naming the file and the line, when one arrow of a committed diagram goes elsewhere.
    func test_DIAG_checkFailsWhenAnArrowMoves() throws {
        let copy = try copyOfCommittedDiagrams(editing: "cold-load.md") { text in
            XCTAssertTrue(text.contains("main->>ioQueue: 4. cache: disk query"), text)
            return text.replacingOccurrences(
                of: "main->>ioQueue: 4. cache: disk query", with: "main->>main: 4. cache: disk query")
        }
        let result = try CLIProcess.run(["diagram", "--all", "--check", copy.path], environment: environment)
        XCTAssertEqual(result.status, 6, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("cold-load.md: line "), result.stdout)
        XCTAssertEqual(result.stdoutLines.filter { $0.hasPrefix("differs: ") }.count, 1, result.stdout)
    }

    /// Thread ids and times are not structure: a committed diagram whose table and arrow details differ still passes.
    /// Each edit is checked to have matched, and the copy checked to differ from the committed file, so the check
    /// really saw a changed diagram.
    func test_DIAG_checkIgnoresThreadsTimesAndDetails() throws {
        let threadAndTime = #"\| \d+ \| [0-9.]+ \|"#
        let copy = try copyOfCommittedDiagrams(editing: "disk-hit.md") { text in
            let rows = text.components(separatedBy: "\n").filter {
                $0.range(of: threadAndTime, options: .regularExpression) != nil
            }
            XCTAssertGreaterThan(rows.count, 2, "the table has thread and time cells to edit")
            XCTAssertTrue(text.contains("· hit, "), "an arrow detail to edit")
            return text.replacingOccurrences(of: threadAndTime, with: "| 1 | 999.99 |", options: .regularExpression)
                .replacingOccurrences(of: "· hit, ", with: "· hit (edited), ")
        }
        let committed = try String(contentsOf: committedDiagrams.appendingPathComponent("disk-hit.md"), encoding: .utf8)
        let edited = try String(contentsOf: copy.appendingPathComponent("disk-hit.md"), encoding: .utf8)
        XCTAssertNotEqual(edited, committed)
        XCTAssertFalse(edited.contains("· hit, "), "every arrow detail was edited")
        XCTAssertTrue(edited.contains("· hit (edited), "))
        XCTAssertGreaterThan(
            edited.components(separatedBy: "| 1 | 999.99 |").count - 1, 2, "thread and time cells were edited")
        let result = try CLIProcess.run(["diagram", "disk-hit", "--check", copy.path], environment: environment)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(
            result.stdoutLines, ["same structure: \(copy.appendingPathComponent("disk-hit.md").path)"], result.stdout)
    }
}
