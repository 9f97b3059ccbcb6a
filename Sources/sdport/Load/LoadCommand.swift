import ArgumentParser
import Foundation
import SDPort
import SDPortTimeline

/// `sdport load <url-or-path>`: one load through `SDWebImageManager`.
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Load one image through the manager and say where it came from.")

    @Argument(help: "An http(s) URL, or the path of a local image file.")
    var source: String

    @Option(
        name: .customLong("option"),
        help: ArgumentHelp(
            "An SDWebImageOptions flag; repeat for more. One of: \(LoadOption.allCases.map(\.rawValue).joined(separator: ", ")).",
            valueName: "name"))
    var optionNames: [String] = []

    @OptionGroup var cacheOptions: CacheDirectoryOptions

    @OptionGroup var coderOptions: CoderOptions

    @Flag(name: .long, help: "Print one JSON object (origin, format, width, height, frames, coder, cacheFile, url).")
    var json = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Write the decoded image; the extension picks the format: .gif or .webp keep an animation, .png or .jpg hold one frame.",
            valueName: "file"))
    var output: String?

    @Option(
        name: .long,
        help: ArgumentHelp("With --output: write only this frame of an animation (1 is the first).", valueName: "N"))
    var frame: Int?

    @Option(
        name: .customLong("contact-sheet"),
        help: ArgumentHelp("Write every frame side by side in one PNG.", valueName: "file.png"))
    var contactSheet: String?

    @Flag(name: .long, help: "Print each step of the flow (SDWebImageTrace) as it happens.")
    var trace = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Write the load's timeline as a Chrome trace (Perfetto, about:tracing): each step on the queue or thread it ran on.",
            valueName: "file.json"))
    var timeline: String?

    /// The parsed `--option` values (checked in `validate()`).
    var options: [LoadOption] { optionNames.compactMap(LoadOption.init(rawValue:)) }

    func validate() throws {
        if frame != nil, output == nil { throw ValidationError("--frame needs --output") }
        for name in optionNames where LoadOption(rawValue: name) == nil {
            throw ValidationError(
                "unknown --option '\(name)'; known: \(LoadOption.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() async throws {
        let source = try LoadSource.parse(self.source)
        coderOptions.apply()
        let session = try LoadSession.make(cacheDirectory: cacheOptions.cacheDirectory)
        let tracePrinter = trace ? TracePrinter(indent: "  ", toStandardError: json) : nil
        tracePrinter?.start()
        defer { tracePrinter?.stop() }
        let timelineRecorder = timeline.map { _ in TimelineRecorder() }
        timelineRecorder?.start()
        defer { timelineRecorder?.stop() }

        // A local file is loaded by its file URL, through the downloader as NSURLSession would load it (DL-17);
        // its cache key is that URL's absolute string ("file:///…"), stable from one run to the next.
        let url: URL
        switch source {
        case .remote(let remote): url = remote
        case .localFile(let file): url = file
        }

        let progress = (json || trace) ? nil : ProgressDisplay(label: url.lastPathComponent, indent: "")
        let start = DispatchTime.now()
        let result: SDWebImageLoadResult
        do {
            result = try await session.manager.loadImage(
                with: url, options: LoadOption.combined(options),
                progress: progress?.block)
        } catch {
            progress?.finish()
            throw SDPortFailure(.loadFailed, LoadFailureText.line(for: error, source: self.source))
        }
        let milliseconds = Milliseconds.since(start)
        progress?.finish()
        await session.flushDiskWrites()
        if let timeline, let timelineRecorder {
            // After the disk write, so the io queue's work is on it.
            timelineRecorder.stop()
            do {
                try timelineRecorder.write(to: timeline, processName: "sdport load \(url.lastPathComponent)")
            } catch {
                throw SDPortFailure(
                    .outputUnwritable, "cannot write the timeline to \(timeline): \(error.localizedDescription)")
            }
        }
        let key = session.manager.cacheKey(for: url)
        let report = LoadReport(
            result: result, url: url, cacheFile: session.cacheFile(forKey: key),
            milliseconds: milliseconds)
        var written: [String] = []
        if let output {
            written.append(try ImageOutput.write(result.image, to: output, frame: frame))
        }
        if let contactSheet {
            written.append(try ImageOutput.writeContactSheet(result.image, to: contactSheet))
        }
        if json {
            Console.out(report.json)
        } else {
            if case .localFile(let file) = source {
                Console.out("file:       \(file.path) (cache key \(key ?? "-"))")
            }
            report.lines.forEach(Console.out)
            written.forEach(Console.out)
            if let timeline { Console.out("timeline:   \(timeline) (open it in Perfetto or about:tracing)") }
        }
    }
}
