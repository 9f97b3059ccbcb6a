import Foundation
import SDPort
import SDPortCacheWorkload
import SDPortTestSupport
import XCTest

/// Crash safety (CACHE-05): a process killed in the middle of storing leaves only whole files under cache
/// names. The child is `sdport-cache-worker store DIR COUNT` (`Tests/CacheWorker`): it stores 1 000 PNG images,
/// one after another, through `writeImageDataToDisk` (the atomic writer every store uses). The parent kills it
/// with SIGKILL at a random moment, 20 times over the same directory, so later children overwrite files earlier
/// ones wrote.
final class CACHE05_KillTests: XCTestCase {
    static let imageCount = 1_000

    /// Parity: CACHE-05 — 20 children killed (SIGKILL) at random moments while storing 1 000 images: every
    /// file under a cache name is a whole image equal to what was stored under its key, nothing else is
    /// visible but hidden temporary files, and the next `deleteOldFiles` removes those once they are old.
    func test_CACHE05_killedWritersLeaveOnlyWholeFiles() throws {
        let directory = try TemporaryDirectory(prefix: "sdport-kill")
        defer { directory.remove() }
        let cache = CacheWorkload.cache(in: directory.path)
        let worker = try CLIProcess.executable("sdport-cache-worker")
        func files() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: cache.diskCachePath)) ?? [] }

        var generator = SeededGenerator(seed: 20_260_611)
        var killedMidway = 0
        for round in 0..<20 {
            // The child's private home (Tests/Isolation) goes into the directory too: a killed child cannot remove it.
            let child = try ChildProcess(
                executable: worker, arguments: ["store", directory.path, String(Self.imageCount)],
                environment: ProcessInfo.processInfo.environment.merging(["SDPORT_TEST_HOME_PARENT": directory.path]) {
                    $1
                },
                stdout: .null, stderr: .null)
            // The moment: once the directory holds a random number of files (the first round starts empty,
            // later ones hold earlier rounds' files and overwrite them, so some rounds are killed at once).
            let target = Int(generator.next(upperBound: UInt64(Self.imageCount)))
            _ = waitUntil(timeout: 60) { !child.isRunning || files().count >= target }
            if child.isRunning { killedMidway += 1 }
            child.send(SIGKILL)
            let exit = try child.wait(deadline: 30)
            XCTAssertTrue(exit.reason == .signal || exit.code == 0, "round \(round)")
        }
        XCTAssertGreaterThan(killedMidway, 0, "at least one child was killed while storing")

        XCTAssertEqual(
            try CacheWorkload.tornFiles(in: cache.diskCachePath, keys: Self.imageCount), [],
            "every file under a cache name holds exactly the image stored under its key")
        let temporaries = files().filter { $0.hasPrefix(".") }
        // Leftover temporary files are removed by the cleanup once old enough to be abandoned.
        for name in temporaries {
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -2 * 24 * 3600)],
                ofItemAtPath: cache.diskCachePath + "/" + name)
        }
        let cleaned = expectation(description: "deleteOldFiles")
        cache.deleteOldFiles { cleaned.fulfill() }
        wait(for: [cleaned], timeout: 30)
        XCTAssertFalse(files().contains { $0.hasPrefix(".") }, "no temporary file survives the cleanup")
    }
}
