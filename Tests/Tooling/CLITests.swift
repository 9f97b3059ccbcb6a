import Foundation
import SDPort
import SDPortTestServer
import SDPortTestSupport
import XCTest

@testable import sdport

/// The `sdport` command, run as a separate process against a real loopback server and a temporary cache
/// directory: successful loads and their JSON, each kind of bad input (one stderr line, the documented exit code,
/// never a crash), the FAQ, `--output`, `--trace`, local files, the cache subcommands and the demo.
final class CLITests: XCTestCase {
    private var server: SDPortTestServer!
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        server = SDPortTestServer()
        try server.start()
        server.serveDirectory(TestFixtures.directory, under: "/")
        directory = try TemporaryDirectory(prefix: "sdport-cli")
    }

    override func tearDown() {
        server?.stop()
        directory?.remove()
        // XCTest on Linux never frees its test-case instances: what they still hold would outlive the test.
        server = nil
        directory = nil
    }

    private var cacheDirectory: String { directory.path }

    /// The JSON object printed by `load --json`.
    private func jsonObject(_ result: CLIProcess.Result, file: StaticString = #filePath, line: UInt = #line) throws
        -> [String: Any]
    {
        XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)", file: file, line: line)
        let text = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertFalse(text.contains("\n"), "--json prints one line: \(text)", file: file, line: line)
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return try XCTUnwrap(object, "not a JSON object: \(text)", file: file, line: line)
    }

    /// Asserts a failure: the exit code, exactly one stderr line containing `fragment`, no crash report.
    private func assertFails(
        _ result: CLIProcess.Result, status: Int32, mentioning fragment: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(result.status, status, "stderr: \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stderrLines.count, 1, "one line on stderr, got: \(result.stderr)", file: file, line: line)
        XCTAssertTrue(
            result.stderr.contains(fragment), "stderr should mention \(fragment): \(result.stderr)", file: file,
            line: line)
        for crashSign in ["Fatal error", "Stack dump", "Current stack trace", "Illegal instruction", "0x0000"] {
            XCTAssertFalse(result.stderr.contains(crashSign), "crash output: \(result.stderr)", file: file, line: line)
        }
    }

    // MARK: load

    func test_CLI_loadPrintsJSONAndASecondRunReadsTheDisk() throws {
        let url = server.url("/baseline.jpg").absoluteString
        let first = try jsonObject(CLIProcess.run(["load", url, "--cache-dir", cacheDirectory, "--json"]))
        XCTAssertEqual(first["origin"] as? String, "download")
        XCTAssertEqual(first["format"] as? String, "jpg")
        XCTAssertEqual(first["width"] as? Int, 256)
        XCTAssertEqual(first["height"] as? Int, 192)
        XCTAssertEqual(first["frames"] as? Int, 1)
        XCTAssertEqual(first["url"] as? String, url)
        let cacheFile = try XCTUnwrap(first["cacheFile"] as? String)
        XCTAssertEqual((cacheFile as NSString).lastPathComponent, SDImageCache.cachedFileName(forKey: url))
        XCTAssertTrue(cacheFile.hasPrefix(cacheDirectory + "/com.hackemist.SDWebImageCache.default/"), cacheFile)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: cacheFile)), try TestFixtures.data("baseline.jpg"))

        // A new process has an empty memory cache: the image comes from disk, without a request.
        let second = try jsonObject(CLIProcess.run(["load", url, "--cache-dir", cacheDirectory, "--json"]))
        XCTAssertEqual(second["origin"] as? String, "disk")
        XCTAssertEqual(server.hits("/baseline.jpg"), 1)
    }

    /// Parity: COD-01, COD-10 — `sdport load` says which coder decoded the image: with 4.4.8's default set a GIF
    /// is `SDWebImageImageIOCoder`'s first frame (as under UIKit); `--gif-coder` adds `SDWebImageGIFCoder`, as a
    /// 4.4.8 app would, and the GIF animates.
    func test_CLI_animatedGIFReportsItsFramesAndTheCoder() throws {
        let still = try jsonObject(
            CLIProcess.run([
                "load", server.url("/animated.gif").absoluteString,
                "--cache-dir", cacheDirectory, "--json",
            ]))
        XCTAssertEqual(still["format"] as? String, "gif")
        XCTAssertEqual(still["frames"] as? Int, 1)
        XCTAssertEqual(still["coder"] as? String, "SDWebImageImageIOCoder")

        let object = try jsonObject(
            CLIProcess.run([
                "load", server.url("/animated.gif?animated").absoluteString,
                "--cache-dir", cacheDirectory, "--json", "--gif-coder",
            ]))
        XCTAssertEqual(object["format"] as? String, "gif")
        XCTAssertEqual(object["frames"] as? Int, 5)
        XCTAssertEqual(object["width"] as? Int, 20)
        XCTAssertEqual(object["coder"] as? String, "SDWebImageGIFCoder")

        let webp = try jsonObject(
            CLIProcess.run([
                "load", server.url("/lossy.webp").absoluteString,
                "--cache-dir", cacheDirectory, "--json",
            ]))
        XCTAssertEqual(webp["coder"] as? String, "SDWebImageWebPCoder")
    }

    func test_CLI_cacheMemoryOnlyOptionLeavesNoFile() throws {
        let object = try jsonObject(
            CLIProcess.run([
                "load", server.url("/rgba.png").absoluteString,
                "--cache-dir", cacheDirectory, "--json", "--option", "cacheMemoryOnly",
            ]))
        XCTAssertEqual(object["origin"] as? String, "download")
        XCTAssertTrue(object["cacheFile"] is NSNull, "cacheMemoryOnly must not write a file: \(object)")
    }

    func test_CLI_localPathIsCachedUnderItsFileURL() throws {
        let path = TestFixtures.url("rgba.png").path
        let first = try jsonObject(CLIProcess.run(["load", path, "--cache-dir", cacheDirectory, "--json"]))
        XCTAssertEqual(first["origin"] as? String, "download")
        let expectedName = SDImageCache.cachedFileName(forKey: URL(fileURLWithPath: path).absoluteString)
        XCTAssertEqual(((first["cacheFile"] as? String) as NSString?)?.lastPathComponent, expectedName)
        let second = try jsonObject(CLIProcess.run(["load", path, "--cache-dir", cacheDirectory, "--json"]))
        XCTAssertEqual(second["origin"] as? String, "disk")
        XCTAssertEqual(second["width"] as? Int, 32)
    }

    func test_CLI_outputWritesAPNGAndAContactSheetForAnimations() throws {
        let still = directory.url.appendingPathComponent("still.png").path
        let result = try CLIProcess.run([
            "load", server.url("/baseline.jpg").absoluteString,
            "--cache-dir", cacheDirectory, "--output", still,
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let stillImage = try XCTUnwrap(
            SDWebImageCodersManager.shared.decodedImage(with: Data(contentsOf: URL(fileURLWithPath: still))))
        XCTAssertEqual(Data.sd_imageFormat(forImageData: try Data(contentsOf: URL(fileURLWithPath: still))), .png)
        XCTAssertEqual(stillImage.pixelWidth, 256)
        XCTAssertEqual(stillImage.pixelHeight, 192)

        let sheet = directory.url.appendingPathComponent("sheet.png").path
        let animated = try CLIProcess.run([
            "load", server.url("/animated.gif").absoluteString,
            "--cache-dir", cacheDirectory, "--contact-sheet", sheet, "--gif-coder",
        ])
        XCTAssertEqual(animated.status, 0, animated.stderr)
        let sheetImage = try XCTUnwrap(
            SDWebImageCodersManager.shared.decodedImage(with: Data(contentsOf: URL(fileURLWithPath: sheet))))
        // 5 frames of 20×20 in 3 columns and 2 rows, 2 px apart.
        XCTAssertEqual(sheetImage.pixelWidth, 3 * 20 + 2 * 2)
        XCTAssertEqual(sheetImage.pixelHeight, 2 * 20 + 2)
        XCTAssertNil(sheetImage.images, "the contact sheet is one still image")
    }

    /// `--output` of an animation keeps it: .gif and .webp write every frame with its delay; `--frame N` writes one
    /// frame; a one-frame format for an animation is a usage error that says what to do.
    func test_CLI_outputWritesAnimationsAndSingleFrames() throws {
        let source = try SDWebImageGIFCoder.shared.decodeImage(from: TestFixtures.data("animated.gif"))
        for name in ["out.gif", "out.webp"] {
            let path = directory.url.appendingPathComponent(name).path
            let result = try CLIProcess.run([
                "load", server.url("/animated.gif").absoluteString, "--cache-dir", cacheDirectory,
                "--gif-coder", "--output", path,
            ])
            XCTAssertEqual(result.status, 0, result.stderr)
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let decoded = try XCTUnwrap(
                name.hasSuffix("gif")
                    ? SDWebImageGIFCoder.shared.decodedImage(with: data)
                    : SDWebImageWebPCoder.shared.decodedImage(with: data))
            XCTAssertEqual(decoded.distinctFrames.count, 5, name)
            XCTAssertEqual(
                decoded.frameDurations.map { ($0 * 100).rounded() }, source.frameDurations.map { ($0 * 100).rounded() },
                name)
            XCTAssertTrue(result.stdout.contains("5 frames"), result.stdout)
        }
        let second = directory.url.appendingPathComponent("frame2.png").path
        let one = try CLIProcess.run([
            "load", server.url("/animated.gif").absoluteString, "--cache-dir", cacheDirectory,
            "--gif-coder", "--output", second, "--frame", "2",
        ])
        XCTAssertEqual(one.status, 0, one.stderr)
        let frame = try XCTUnwrap(
            SDWebImageCodersManager.shared.decodedImage(with: Data(contentsOf: URL(fileURLWithPath: second))))
        XCTAssertNil(frame.images)
        XCTAssertEqual(frame.pixels, source.distinctFrames[1].pixels, "frame 2's pixels")

        let refused = try CLIProcess.run([
            "load", server.url("/animated.gif").absoluteString, "--cache-dir", cacheDirectory,
            "--gif-coder", "--output", directory.url.appendingPathComponent("all.png").path,
        ])
        assertFails(refused, status: 2, mentioning: "--frame N")
        let outOfRange = try CLIProcess.run([
            "load", server.url("/animated.gif").absoluteString, "--cache-dir", cacheDirectory,
            "--gif-coder", "--output", second, "--frame", "9",
        ])
        assertFails(outOfRange, status: 2, mentioning: "5 frames")
    }

    func test_CLI_traceListsTheManagerFlowInOrder() throws {
        let result = try CLIProcess.run([
            "load", server.url("/gray.jpg").absoluteString, "--cache-dir", cacheDirectory, "--trace",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let steps = result.stdoutLines.compactMap { line -> Int? in
            let fields = line.split(separator: " ")
            guard fields.count > 3, fields[1] == "ms", fields[2].hasSuffix(".") else { return nil }
            return Int(fields[2].dropLast())
        }
        // A load made on the manager (no view): steps 2 to 9, in order. A step may report twice in a row
        // (the coders report the decode and the force-decode as step 7).
        XCTAssertEqual(steps, steps.sorted(), "steps out of order:\n\(result.stdout)")
        XCTAssertEqual(Array(Set(steps)).sorted(), Array(2...9), result.stdout)
    }

    // MARK: bad input

    func test_CLI_notFoundIsOneLineAndExitCode1() throws {
        server.route("/missing.png", .status(404))
        let result = try CLIProcess.run([
            "load", server.url("/missing.png").absoluteString, "--cache-dir", cacheDirectory,
        ])
        // 4.4.8's error is "cancelled"; the status stays visible.
        assertFails(result, status: 1, mentioning: "HTTP 404")
        XCTAssertEqual(result.stdout, "")
    }

    func test_CLI_unreachableHostIsOneLineAndExitCode1() throws {
        let closedPort = server.port
        server.stop()
        let result = try CLIProcess.run(["load", "http://127.0.0.1:\(closedPort)/a.png", "--cache-dir", cacheDirectory])
        assertFails(result, status: 1, mentioning: "127.0.0.1")
    }

    func test_CLI_bytesThatAreNoImageFailAndLeaveNoCacheFile() throws {
        server.route("/page.png", .data(Data("<html>not an image</html>".utf8), contentType: "text/html"))
        let result = try CLIProcess.run(["load", server.url("/page.png").absoluteString, "--cache-dir", cacheDirectory])
        assertFails(result, status: 1, mentioning: "load failed")
        let cacheFiles =
            (try? FileManager.default.contentsOfDirectory(
                atPath: cacheDirectory + "/com.hackemist.SDWebImageCache.default")) ?? []
        XCTAssertEqual(cacheFiles.filter { !$0.hasPrefix(".") }, [])
    }

    func test_CLI_corruptFixtureFailsCleanly() throws {
        let result = try CLIProcess.run([
            "load", server.url("/corrupt.jpg").absoluteString, "--cache-dir", cacheDirectory,
        ])
        assertFails(result, status: 1, mentioning: "Downloaded image has 0 pixels")
        assertFails(result, status: 1, mentioning: "not a decodable image")  // the coder's reason, underneath
    }

    /// A failure inside a longer command ends it: the demo given a fixture that sniffs as PNG but holds no image
    /// stops at that load with exit code 1 and one stderr line, well within the child's deadline.
    func test_CLI_aFailingStepInsideTheDemoEndsItWithOneLine() throws {
        let fixtures = directory.url.appendingPathComponent("fixtures")
        try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
        try (Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 0xAB, count: 200))
            .write(to: fixtures.appendingPathComponent("broken.png"))
        let result = try CLIProcess.run(
            ["demo", "--fixtures", fixtures.path, "--cache-dir", cacheDirectory + "/demo"],
            deadline: 60)
        assertFails(result, status: 1, mentioning: "sdport: demo: ")
        XCTAssertTrue(result.stderr.contains("broken.png"), result.stderr)
    }

    /// A step that never completes ends the command at its deadline (`SDPORT_COMMAND_DEADLINE`), with exit code 7
    /// and one line naming the command, rather than leaving the process waiting: here a download whose server
    /// never answers (the download's own 15 s timeout would come later).
    func test_CLI_aStepThatNeverCompletesEndsAtTheCommandsDeadline() throws {
        server.route("/stalled.png", .stall)
        let result = try CLIProcess.run(
            ["load", server.url("/stalled.png").absoluteString, "--cache-dir", cacheDirectory],
            environment: ["SDPORT_COMMAND_DEADLINE": "1"], deadline: 60)
        assertFails(result, status: 7, mentioning: "sdport: load did not finish within 1 s")
    }

    func test_CLI_unknownFlagAndUnknownOptionNameAreUsageErrors() throws {
        let url = server.url("/baseline.jpg").absoluteString
        assertFails(try CLIProcess.run(["load", url, "--bogus"]), status: 2, mentioning: "--bogus")
        assertFails(
            try CLIProcess.run(["load", url, "--option", "noSuchOption"]), status: 2, mentioning: "noSuchOption")
        assertFails(try CLIProcess.run(["frobnicate"]), status: 2, mentioning: "frobnicate")
        assertFails(try CLIProcess.run(["faq", "18"]), status: 2, mentioning: "18")
        XCTAssertEqual(server.totalHits, 0)
    }

    func test_CLI_unusableCacheDirectoryIsExitCode3() throws {
        // A regular file where a directory is needed fails for every user, root included.
        let blocker = directory.url.appendingPathComponent("not-a-directory")
        try Data("x".utf8).write(to: blocker)
        let result = try CLIProcess.run([
            "load", server.url("/baseline.jpg").absoluteString, "--cache-dir", blocker.path,
        ])
        assertFails(result, status: 3, mentioning: "not-a-directory")
        XCTAssertEqual(server.totalHits, 0, "nothing is downloaded when the cache cannot be used")
        assertFails(
            try CLIProcess.run(["cache", "clear", "--cache-dir", blocker.path]), status: 3,
            mentioning: "not a directory")
    }

    func test_CLI_unwritableOutputIsExitCode4() throws {
        let blocker = directory.url.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let result = try CLIProcess.run([
            "load", server.url("/rgba.png").absoluteString, "--cache-dir", cacheDirectory,
            "--output", blocker.path + "/out.png",
        ])
        assertFails(result, status: 4, mentioning: "out.png")
    }

    func test_CLI_helpDocumentsTheExitCodes() throws {
        let result = try CLIProcess.run(["--help"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stdout.contains("EXIT CODES"), result.stdout)
        for code in ["1  the load failed", "2  usage error", "3  the cache directory"] {
            XCTAssertTrue(result.stdout.contains(code), "help should document \(code)")
        }
    }

    // MARK: cache

    func test_CLI_cacheInfoCleanAndClear() throws {
        XCTAssertEqual(
            try CLIProcess.run(["load", server.url("/baseline.jpg").absoluteString, "--cache-dir", cacheDirectory])
                .status, 0)
        XCTAssertEqual(
            try CLIProcess.run(["load", server.url("/rgba.png").absoluteString, "--cache-dir", cacheDirectory]).status,
            0)
        let info = try CLIProcess.run(["cache", "info", "--cache-dir", cacheDirectory, "--json"])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["files"] as? Int, 2)
        let path = try CLIProcess.run(["cache", "path", "--cache-dir", cacheDirectory]).stdout
        XCTAssertEqual(
            path.trimmingCharacters(in: .whitespacesAndNewlines),
            cacheDirectory + "/com.hackemist.SDWebImageCache.default")

        // Age one file past maxCacheAge (one week): `clean` removes only that one.
        let aged =
            cacheDirectory + "/com.hackemist.SDWebImageCache.default/"
            + SDImageCache.cachedFileName(forKey: server.url("/baseline.jpg").absoluteString)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-8 * 86_400)], ofItemAtPath: aged)
        let clean = try CLIProcess.run(["cache", "clean", "--cache-dir", cacheDirectory])
        XCTAssertEqual(clean.status, 0, clean.stderr)
        XCTAssertTrue(clean.stdout.contains("1 removed, 1 left"), clean.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: aged))

        let clear = try CLIProcess.run(["cache", "clear", "--cache-dir", cacheDirectory])
        XCTAssertEqual(clear.status, 0, clear.stderr)
        let after = try CLIProcess.run(["cache", "info", "--cache-dir", cacheDirectory, "--json"])
        XCTAssertEqual(
            (try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any])?["files"] as? Int, 0)
    }

    // MARK: faq

    func test_CLI_faqPrintsSeventeenEntriesEachWithLiveValueAndTest() throws {
        let result = try CLIProcess.run(["faq"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let headings = result.stdoutLines.filter { $0.hasPrefix("FAQ-") }
        XCTAssertEqual(headings.count, 17, result.stdout)
        XCTAssertEqual(headings.map { String($0.prefix(6)) }, (1...17).map { String(format: "FAQ-%02d", $0) })
        XCTAssertEqual(result.stdoutLines.filter { $0.hasPrefix("  Live:") }.count, 17)
        XCTAssertEqual(result.stdoutLines.filter { $0.hasPrefix("  Test:") }.count, 17)
        XCTAssertFalse(result.stdout.contains("could not read"), result.stdout)
    }

    func test_CLI_faq3PrintsTheMD5Rule() throws {
        let result = try CLIProcess.run(["faq", "3"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let question = try XCTUnwrap(FAQEntry.all.first { $0.number == 3 }).question
        XCTAssertEqual(result.stdoutLines.filter { $0.hasPrefix("FAQ-") }, ["FAQ-03  \(question)"])
        XCTAssertTrue(result.stdout.contains("MD5"))
        // The live value is the real file name of the sample key, computed here independently.
        let sample = "https://example.com/images/cat.png?size=large"
        XCTAssertTrue(result.stdout.contains(SDImageCache.cachedFileName(forKey: sample)), result.stdout)
        XCTAssertTrue(SDImageCache.cachedFileName(forKey: sample).hasSuffix(".png"))
    }

    /// `sdport faq 7`: the 30-second answer first, then each follow-up (question, answer, and its deciding line as a
    /// link at its tag), then the detail (the one-line answer, the answer, the live value, the test).
    func test_CLI_faq7PrintsTheShortAnswerThenTheFollowUpsThenTheDetail() throws {
        let result = try CLIProcess.run(["faq", "7"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let entry = try XCTUnwrap(FAQEntry.all.first { $0.number == 7 })
        let text = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let short = try XCTUnwrap(entry.short)
        XCTAssertTrue(text.contains("In 30 s: " + short.split(separator: " ").prefix(8).joined(separator: " ")), text)
        var marks = [text.range(of: "In 30 s:")?.lowerBound]
        for (index, followUp) in entry.followUps.enumerated() {
            marks.append(
                text.range(
                    of: "Next \(index + 1): " + followUp.question.split(separator: " ").prefix(4).joined(separator: " ")
                )?.lowerBound)
            marks.append(text.range(of: followUp.original.link)?.lowerBound)
        }
        marks += ["In short:", "Answer:", "Live:", "Test:"].map { text.range(of: $0)?.lowerBound }
        XCTAssertFalse(marks.contains(nil), text)
        XCTAssertEqual(
            marks.compactMap { $0 }, marks.compactMap { $0 }.sorted(), "short, follow-ups, then the detail: \(text)")
        XCTAssertTrue(
            text.contains("https://github.com/SDWebImage/SDWebImage/blob/4.4.8/SDWebImage/SDImageCache.m#L203-L214"),
            text)
        XCTAssertTrue(
            text.contains("https://github.com/SDWebImage/SDWebImage/blob/5.21.5/SDWebImage/Core/SDImageCache.m#L852"),
            text)
    }

    /// `sdport faq --json`: one array of 17 cards, each with its `short` and its `followUps` (objects with question,
    /// answer and original: tag, file, lines, token and the link); no live values. With a number, that card only.
    func test_CLI_faqJSONGivesShortAndFollowUpsPerCard() throws {
        let result = try CLIProcess.run(["faq", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let cards = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(cards.map { $0["id"] as? String }, (1...17).map { String(format: "FAQ-%02d", $0) })
        for (card, entry) in zip(cards, FAQEntry.all) {
            XCTAssertEqual(card["short"] as? String, entry.short)
            let followUps = try XCTUnwrap(card["followUps"] as? [[String: Any]], entry.parityID)
            XCTAssertEqual(followUps.count, entry.followUps.count)
            XCTAssertGreaterThanOrEqual(followUps.count, 3)
            for (object, followUp) in zip(followUps, entry.followUps) {
                XCTAssertEqual(object["question"] as? String, followUp.question)
                XCTAssertEqual(object["answer"] as? String, followUp.answer)
                let original = try XCTUnwrap(object["original"] as? [String: String])
                XCTAssertEqual(
                    original,
                    [
                        "tag": followUp.original.tag, "file": followUp.original.file,
                        "lines": followUp.original.lines, "token": followUp.original.token,
                        "link": followUp.original.link,
                    ])
            }
            XCTAssertNil(card["live"], "the JSON is the card's data, not a run")
        }
        let one = try CLIProcess.run(["faq", "12", "--json"])
        XCTAssertEqual(one.status, 0, one.stderr)
        let single = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(single.map { $0["id"] as? String }, ["FAQ-12"])
        XCTAssertEqual(try CLIProcess.run(["faq", "--json", "--markdown"]).status, 2, "the two formats are exclusive")
    }

    func test_CLI_faq14RunsOnTheMainQueueUnderAsyncMain() throws {
        // sdport has no run loop: its async main drains the main queue. The live answer shows the FAQ-14 rule
        // holding there: inline from a main-queue block, queued (then run on the main queue) from elsewhere.
        let result = try CLIProcess.run(["faq", "14"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let live = result.stdout.replacingOccurrences(of: "\n", with: " ")
            .split(separator: " ").joined(separator: " ")
        XCTAssertTrue(live.contains("ran before the call returned = true"), live)
        XCTAssertTrue(live.contains("ran on the caller's thread = false"), live)
        XCTAssertTrue(live.contains("ran on the main queue = true"), live)
    }

    // MARK: demo

    func test_CLI_demoWalksDownloadMemoryDiskAndCleanup() throws {
        let result = try CLIProcess.run(["demo", "--fixtures", TestFixtures.directory.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let out = result.stdout
        for heading in [
            "1. First load", "2. Second load", "3. clearMemory()", "4. The cache directory", "deleteOldFiles()",
        ] {
            XCTAssertTrue(out.contains(heading), "missing \(heading):\n\(out)")
        }
        XCTAssertFalse(out.contains("(expected "), "every load came from where the sequence says:\n\(out)")
        XCTAssertTrue(out.contains("10. view: set image"), "the first load prints the full flow trace:\n\(out)")
        XCTAssertNotNil(
            out.range(of: "[0-9a-f]{32}\\.jpg", options: .regularExpression), "MD5 file names listed:\n\(out)")
        XCTAssertTrue(out.contains("deleteOldFiles removed"), out)
    }
}
