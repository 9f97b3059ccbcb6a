import Foundation
import SDPortTestSupport

/// Runs the curl command-line client against `SDPortTestServer` in the server's own tests: a real client
/// independent of the port's downloader, whose exit codes name transport faults precisely
/// (18 partial body, 28 timeout, 47 too many redirects, 52 empty reply, 60 untrusted certificate).
struct TestServerCurl {
    struct Result {
        let exitCode: Int32
        let body: Data
        /// The raw response head(s), as curl's `-D` writes them (one block per response with `-L`).
        let headerText: String
        /// curl's `%{http_code}` of the last transfer (0 when there was no response).
        let statusCode: Int
        /// curl's `%{num_connects}` summed over the transfers: new connections it opened.
        let connects: Int

        var bodyText: String { String(decoding: body, as: UTF8.self) }

        /// The value of the first header `name` in the last response head (case-insensitive).
        func header(_ name: String) -> String? { headerValues(name).first }

        /// Every value of the header `name` in the last response head (case-insensitive).
        func headerValues(_ name: String) -> [String] {
            let blocks = headerText.components(separatedBy: "\r\n\r\n").filter { !$0.isEmpty }
            guard let last = blocks.last else { return [] }
            return last.components(separatedBy: "\r\n").compactMap { line in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                guard line[..<colon].caseInsensitiveCompare(name) == .orderedSame else { return nil }
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
    }

    /// Runs `curl -s` with `arguments` (URLs and options) and a 10 s ceiling of its own, and waits for it (a 30 s
    /// deadline over the whole command, in case curl itself hangs).
    static func run(_ arguments: [String]) throws -> Result {
        let folder = try TemporaryDirectory(prefix: "sdport-curl")
        defer { folder.remove() }
        let headersFile = folder.url.appendingPathComponent("headers").path
        let bodyFile = folder.url.appendingPathComponent("body").path
        let process = try start(
            [
                "-s", "--max-time", "10", "-D", headersFile, "-o", bodyFile,
                "-w", "%{http_code} %{num_connects}\n",
            ] + arguments)
        let exit = try process.wait(deadline: 30)
        // One "code connects" line per transfer (URLs after the first need their own `-o`).
        let lines = process.text(1).split(separator: "\n").map { $0.split(separator: " ").map { Int($0) ?? 0 } }
        return Result(
            exitCode: exit.code,
            body: (try? Data(contentsOf: URL(fileURLWithPath: bodyFile))) ?? Data(),
            headerText: (try? String(contentsOfFile: headersFile, encoding: .utf8)) ?? "",
            statusCode: lines.last?.first ?? 0,
            connects: lines.reduce(0) { $0 + ($1.count > 1 ? $1[1] : 0) })
    }

    /// A started `curl -s -o /dev/null` process for requests a test lets run in the background; the test ends it
    /// with `wait(deadline:)`.
    static func background(_ arguments: [String]) throws -> ChildProcess {
        try start(["-s", "-o", "/dev/null"] + arguments)
    }

    private static func start(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(executable: URL(fileURLWithPath: "/usr/bin/env"), arguments: ["curl"] + arguments)
    }
}
