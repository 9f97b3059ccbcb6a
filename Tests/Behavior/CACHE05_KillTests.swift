import Foundation
import SDPort
import SDPortTestSupport
import XCTest

/// Crash safety (CACHE-05): a process killed in the middle of storing leaves only whole files under cache
/// names. The child is this test binary itself, running `test_CACHE05_killChildStoresWhenAsked` with
/// `SDPORT_KILL_CHILD_CACHE` set: it stores 1 000 PNG images, one after another, through
/// `writeImageDataToDisk` (the atomic writer every store uses). The parent kills it with SIGKILL at a random
/// moment, 20 times over the same directory, so later children overwrite files earlier ones wrote.
final class CACHE05_KillTests: XCTestCase {
    static let imageCount = 1_000
    static let namespace = "kill"
    private static let childVariable = "SDPORT_KILL_CHILD_CACHE"

    static func key(_ index: Int) -> String { "http://example.com/kill/\(index).png" }

    /// The bytes stored under `key(index)`: a PNG whose size and pixels depend on the index (the PNG encoder
    /// is deterministic, so parent and child compute the same bytes).
    static func payload(_ index: Int) throws -> Data {
        let width = 24 + index % 40, height = 16 + index % 24
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for offset in stride(from: 0, to: pixels.count, by: 4) {
            pixels[offset] = UInt8(truncatingIfNeeded: index)
            pixels[offset + 1] = UInt8(truncatingIfNeeded: index >> 8)
            pixels[offset + 2] = UInt8(truncatingIfNeeded: offset / 4)
            pixels[offset + 3] = 255
        }
        let image = UIImage(pixelWidth: width, pixelHeight: height, pixels: pixels, hasAlpha: false, scale: 1, format: .png)
        return try SDWebImagePNGCoder.shared.encode(image)
    }

    /// The child's work; does nothing in an ordinary run (no `SDPORT_KILL_CHILD_CACHE`).
    func test_CACHE05_killChildStoresWhenAsked() throws {
        guard let directory = ProcessInfo.processInfo.environment[Self.childVariable] else { return }
        let cache = SDImageCache(namespace: Self.namespace, diskCacheDirectory: directory)
        for index in 0..<Self.imageCount {
            try cache.writeImageDataToDisk(try Self.payload(index), forKey: Self.key(index))
        }
    }

    /// Parity: CACHE-05 — 20 children killed (SIGKILL) at random moments while storing 1 000 images: every
    /// file under a cache name is a whole image equal to what was stored under its key, nothing else is
    /// visible but hidden temporary files, and the next `deleteOldFiles` removes those once they are old.
    func test_CACHE05_killedWritersLeaveOnlyWholeFiles() throws {
        let directory = try TemporaryDirectory(prefix: "sdport-kill")
        defer { directory.remove() }
        let cache = SDImageCache(namespace: Self.namespace, diskCacheDirectory: directory.path)
        let expected = try Dictionary(uniqueKeysWithValues: (0..<Self.imageCount).map {
            (SDImageCache.cachedFileName(forKey: Self.key($0)), try Self.payload($0))
        })
        func files() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: cache.diskCachePath)) ?? [] }

        var generator = SeededGenerator(seed: 20_260_611)
        var killedMidway = 0
        for round in 0..<20 {
            let child = Process()
            child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            child.arguments = ["BehaviorTests.CACHE05_KillTests/test_CACHE05_killChildStoresWhenAsked"]
            // The child's private home (Tests/Isolation) goes into the directory too: a killed child cannot remove it.
            child.environment = ProcessInfo.processInfo.environment.merging(
                [Self.childVariable: directory.path, "SDPORT_TEST_HOME_PARENT": directory.path]) { $1 }
            child.standardInput = FileHandle.nullDevice
            child.standardOutput = FileHandle.nullDevice
            child.standardError = FileHandle.nullDevice
            // The moment: once the directory holds a random number of files (the first round starts empty,
            // later ones hold earlier rounds' files and overwrite them, so some rounds are killed at once).
            let target = Int(generator.next(upperBound: UInt64(Self.imageCount)))
            try child.run()
            _ = waitUntil(timeout: 60) { !child.isRunning || files().count >= target }
            if child.isRunning { killedMidway += 1 }
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            XCTAssertTrue(child.terminationReason == .uncaughtSignal || child.terminationStatus == 0, "round \(round)")
        }
        XCTAssertGreaterThan(killedMidway, 0, "at least one child was killed while storing")

        var temporaries: [String] = []
        for name in files() {
            if name.hasPrefix(".") {
                temporaries.append(name)
                continue
            }
            guard let bytes = expected[name] else { XCTFail("\(name) is no cache file name of a stored key"); continue }
            XCTAssertEqual(FileManager.default.contents(atPath: cache.diskCachePath + "/" + name), bytes,
                           "\(name) holds exactly the image stored under its key")
        }
        // Leftover temporary files are removed by the cleanup once old enough to be abandoned.
        for name in temporaries {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -2 * 24 * 3600)],
                                                  ofItemAtPath: cache.diskCachePath + "/" + name)
        }
        let cleaned = expectation(description: "deleteOldFiles")
        cache.deleteOldFiles { cleaned.fulfill() }
        wait(for: [cleaned], timeout: 30)
        XCTAssertFalse(files().contains { $0.hasPrefix(".") }, "no temporary file survives the cleanup")
    }
}
