import ArgumentParser

/// The exit codes of `sdport`, as `sdport --help` documents them.
///
/// ArgumentParser's own code for a usage error is 64 (`EX_USAGE`); `sdport` maps it to 2, the code most
/// shell tools use, so a script can tell "you called it wrong" (2) from "the load failed" (1).
enum SDPortExitCode: Int32, CaseIterable, Sendable {
    /// The command did what it was asked.
    case success = 0
    /// The image could not be loaded: host unreachable, HTTP error status, bytes that are no image, timeout.
    case loadFailed = 1
    /// The command line was wrong: unknown subcommand, option or option value, missing argument.
    case usage = 2
    /// The cache directory cannot be created or written (also: the quiz's progress file cannot be read or written).
    case cacheDirectoryUnusable = 3
    /// The `--output` file cannot be written.
    case outputUnwritable = 4
    /// The demo cannot start: no `Fixtures/` directory, or the loopback server did not start.
    case demoSetupFailed = 5
    /// `diagram --check`: a regenerated diagram's structure differs from the committed one.
    case checkFailed = 6
    /// A step inside the command never completed: it stopped itself at its deadline (`CommandWatchdog`), or a
    /// wait for an event inside it ran out.
    case stalled = 7
    /// A file the command needs is not there: the knowledge bundle beside `sdport` (a binary copied without it), or,
    /// for `drill N`, a checkout of the package to break a copy of.
    case missingFiles = 8

    var exitCode: ExitCode { ExitCode(rawValue) }

    /// One line per code, for the help text.
    var meaning: String {
        switch self {
        case .success: return "success"
        case .loadFailed: return "the load failed (unreachable host, HTTP error, not an image, timeout)"
        case .usage: return "usage error (unknown subcommand, option or value)"
        case .cacheDirectoryUnusable:
            return "the cache directory (or the quiz's progress file) cannot be created or written"
        case .outputUnwritable: return "the --output file cannot be written"
        case .demoSetupFailed: return "the demo cannot start (no Fixtures directory, server failed)"
        case .checkFailed: return "diagram --check: a regenerated diagram differs from the committed one"
        case .stalled: return "a step inside the command never completed (it stopped at its deadline)"
        case .missingFiles:
            return "sdport's knowledge bundle (beside the binary), or for drill N a checkout, is missing"
        }
    }

    /// The "EXIT CODES" section appended to the root command's help.
    static var helpSection: String {
        "EXIT CODES:\n" + allCases.map { "  \($0.rawValue)  \($0.meaning)" }.joined(separator: "\n")
    }
}
