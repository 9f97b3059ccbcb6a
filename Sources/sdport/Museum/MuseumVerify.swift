import Foundation

/// `sdport museum N --verify`: runs `scripts/museum.sh verify N` in the checkout and reports whether it passed and
/// how long it took (the script prints the time too).
enum MuseumVerify {
    static func run(number: Int, root: URL, echo: Bool) throws -> (passed: Bool, seconds: Int) {
        let started = Date()
        let process = Process()
        process.executableURL = root.appendingPathComponent("scripts/museum.sh")
        process.arguments = ["verify", String(number)]
        process.currentDirectoryURL = root
        if !echo {
            // --json: the script's lines would mix with the JSON; keep stdout for the JSON alone.
            process.standardOutput = FileHandle.standardError
        }
        do {
            try process.run()
        } catch {
            throw SDPortFailure(.usage, "cannot run scripts/museum.sh: \(error.localizedDescription)")
        }
        process.waitUntilExit()
        return (process.terminationStatus == 0, Int(Date().timeIntervalSince(started).rounded()))
    }
}
