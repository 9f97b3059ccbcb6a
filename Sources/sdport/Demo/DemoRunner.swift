import Foundation
import SDPort
import SDPortTestServer

/// The demo's sequence, following the articles: first loads (download → decode → store), second loads
/// (memory), loads after `clearMemory` (disk), the cache directory with its MD5 names, bad input, and
/// `deleteOldFiles` removing files dated more than a week back.
///
/// Loads go through `UIImageView.sd_setImage(with:)` (with the demo's own manager in the context), so the first
/// load of each phase prints the whole flow trace, view steps included. Runs on the main actor, as views do.
@MainActor
final class DemoRunner {
    private let fixtures: DemoFixtures
    private let session: LoadSession
    private let server: SDPortTestServer
    private let tracePrinter = TracePrinter(indent: "      ")
    private let nameWidth: Int

    init(fixtures: DemoFixtures, session: LoadSession, server: SDPortTestServer) {
        self.fixtures = fixtures
        self.session = session
        self.server = server
        nameWidth = max(16, (fixtures.good + fixtures.bad).map(\.count).max() ?? 0)
    }

    func run() async throws {
        let start = DispatchTime.now()
        tracePrinter.start()
        tracePrinter.isMuted = true
        defer { tracePrinter.stop() }

        heading("1. First load of each image: memory miss, disk miss, download, decode, store")
        try await loadAll(expecting: .none, progressBars: true)

        heading("2. Second load: found in the memory cache")
        try await loadAll(expecting: .memory, progressBars: false)

        heading("3. clearMemory(), then load again: read from the disk cache (and put back in memory)")
        session.cache.clearMemory()
        try await loadAll(expecting: .disk, progressBars: false)

        heading("4. The cache directory: file name = MD5 of the cache key (the URL) + the URL's extension")
        listCacheDirectory()

        if !fixtures.bad.isEmpty {
            heading(
                "5. Bad input: corrupt, empty and absurd files fail with a clear error, nothing cached; a truncated JPEG or PNG decodes"
            )
            await loadBadInput()
        }

        heading(
            "\(fixtures.bad.isEmpty ? 5 : 6). deleteOldFiles(): files older than maxCacheAge "
                + "(\(Int(session.cache.config.maxCacheAge / 86_400)) days) are deleted")
        try await ageAndClean()

        Console.out("")
        Console.out("Done in \(Milliseconds.text(Milliseconds.since(start))).")
    }

    // MARK: Phases

    private func loadAll(expecting expected: SDImageCacheType, progressBars: Bool) async throws {
        for (index, name) in fixtures.good.enumerated() {
            let traced = index == 0
            if traced { Console.out("    flow trace of \(name):") }
            tracePrinter.isMuted = !traced
            let progress: ProgressDisplay?
            if traced && progressBars {
                progress = ProgressDisplay(label: name, indent: "      ", terminal: false)
            } else if progressBars && Console.stdoutIsTerminal {
                progress = ProgressDisplay(label: name, indent: "    ")
            } else {
                progress = nil
            }
            let report: LoadReport
            do {
                report = try await load(name, progress: progress)
            } catch {
                progress?.finish()
                tracePrinter.isMuted = true
                throw SDPortFailure(.loadFailed, "demo: \(LoadFailureText.line(for: error, source: name))")
            }
            progress?.finish()
            tracePrinter.isMuted = true
            let mark = report.origin == expected ? "" : "   (expected \(LoadReport.originName(expected)))"
            Console.out("    " + summary(name, report) + mark)
        }
    }

    private func loadBadInput() async {
        for name in fixtures.bad {
            let start = DispatchTime.now()
            do {
                let report = try await load(name, progress: nil)
                Console.out("    " + summary(name, report) + "   (decoded after all)")
            } catch {
                await session.flushDiskWrites()
                let cached = session.cacheFile(forKey: session.manager.cacheKey(for: server.url("/" + name))) != nil
                let message = (error as NSError).localizedDescription.split(whereSeparator: \.isNewline).joined(
                    separator: " ")
                Console.out(
                    "    " + pad(name) + "  failed  " + pad(Milliseconds.text(Milliseconds.since(start)), 9)
                        + "  cached: \(cached ? "yes" : "no")  " + message)
            }
        }
    }

    private func listCacheDirectory() {
        let directory = session.cache.diskCachePath
        Console.out("    \(directory)")
        let byFileName = Dictionary(
            uniqueKeysWithValues: fixtures.good.map { name in
                (SDImageCache.cachedFileName(forKey: session.manager.cacheKey(for: server.url("/" + name))), name)
            })
        for file in cacheFiles() {
            let size =
                (try? FileManager.default.attributesOfItem(
                    atPath: (directory as NSString).appendingPathComponent(file))[.size] as? NSNumber)?
                .uint64Value ?? 0
            let source = byFileName[file].map { "← \(server.url("/" + $0).absoluteString)" } ?? ""
            Console.out(
                "    " + file.padding(toLength: 40, withPad: " ", startingAt: 0) + "  "
                    + pad(ByteCount.text(size), 9) + "  " + source)
        }
        Console.out("    \(session.cache.getDiskCount()) entries, \(ByteCount.text(UInt64(session.cache.getSize())))")
    }

    private func ageAndClean() async throws {
        let directory = session.cache.diskCachePath
        let files = cacheFiles()
        let aged = files.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let eightDaysAgo = Date().addingTimeInterval(-8 * 86_400)
        for file in aged {
            try FileManager.default.setAttributes(
                [.modificationDate: eightDaysAgo],
                ofItemAtPath: (directory as NSString).appendingPathComponent(file))
        }
        Console.out("    dated 8 days back: \(aged.count) of \(files.count) files")
        let start = DispatchTime.now()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            session.cache.deleteOldFiles { continuation.resume() }
        }
        let left = Set(cacheFiles())
        let removed = aged.filter { !left.contains($0) }
        for file in removed { Console.out("    deleted  \(file)") }
        Console.out(
            "    deleteOldFiles removed \(removed.count) files in \(Milliseconds.text(Milliseconds.since(start))); "
                + "\(left.count) left (the ones not aged)")
    }

    // MARK: Helpers

    /// One load through a fresh image view, with the demo's manager.
    private func load(_ name: String, progress: ProgressDisplay?) async throws -> LoadReport {
        let url = server.url("/" + name)
        let view = UIImageView()
        let start = DispatchTime.now()
        let result = try await view.sd_setImage(
            with: url, placeholderImage: nil, options: [],
            context: [SDWebImageExternalCustomManagerKey: session.manager],
            progress: progress?.block)
        let milliseconds = Milliseconds.since(start)
        await session.flushDiskWrites()
        return LoadReport(
            result: result, url: url,
            cacheFile: session.cacheFile(forKey: session.manager.cacheKey(for: url)),
            milliseconds: milliseconds)
    }

    private func summary(_ name: String, _ report: LoadReport) -> String {
        let frames = "\(report.frames) frame\(report.frames == 1 ? "" : "s")"
        return pad(name) + "  " + pad(report.originName, 8) + "  " + pad(report.formatName, 5) + "  "
            + pad("\(report.width)×\(report.height)", 10) + "  " + pad(frames, 9) + "  "
            + pad(report.shortCoderName, 12) + "  "
            + pad(Milliseconds.text(report.milliseconds), 9)
            + "  " + (report.cacheFile.map { ($0 as NSString).lastPathComponent } ?? "(not on disk)")
    }

    private func cacheFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: session.cache.diskCachePath)) ?? [])
            .filter { !$0.hasPrefix(".") }
            .sorted()
    }

    private func heading(_ text: String) {
        Console.out("")
        Console.out(text)
    }

    private func pad(_ text: String, _ width: Int? = nil) -> String {
        text.padding(toLength: max(text.count, width ?? nameWidth), withPad: " ", startingAt: 0)
    }
}
