import ArgumentParser
import Foundation
import SDPort

/// `sdport demo` (temporary stub until the real demo lands): decodes every file in `Fixtures/` through
/// `SDWebImageCodersManager` and prints its name, format, pixel size and frame count. A file that does not
/// decode prints its error, and the run goes on.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Decode every image in Fixtures/ and print what each one is."
    )

    @Option(name: .long, help: "The folder of images to decode (default: Fixtures/ in the current directory).")
    var fixtures: String = "Fixtures"

    func run() throws {
        let folder = URL(fileURLWithPath: fixtures, isDirectory: true)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { !$0.hasPrefix(".") && $0 != "README.md" }
                .sorted()
        } catch {
            throw ValidationError("cannot read \(folder.path): \(error.localizedDescription)")
        }
        let manager = SDWebImageCodersManager.shared
        var decoded = 0
        for name in names {
            let label = name.padding(toLength: 24, withPad: " ", startingAt: 0)
            do {
                let data = try Data(contentsOf: folder.appendingPathComponent(name))
                let image = try manager.decodeImage(from: data, traceKey: name)
                let format = image.sd_imageFormat.fileExtension ?? "?"
                let frames = image.images?.count ?? 1
                let alpha = image.hasAlpha ? ", alpha" : ""
                print("\(label) \(format.padding(toLength: 5, withPad: " ", startingAt: 0)) "
                      + "\(image.pixelWidth)×\(image.pixelHeight), \(frames) frame\(frames == 1 ? "" : "s")\(alpha)")
                decoded += 1
            } catch {
                print("\(label) error: \(error.localizedDescription)")
            }
        }
        print("\(decoded) of \(names.count) files decoded")
    }
}
