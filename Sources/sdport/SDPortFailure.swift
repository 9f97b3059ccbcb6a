/// A failure the command reports as one line on stderr, with its exit code.
///
/// Every error that leaves a subcommand's `run()` is one of these (or an ArgumentParser usage error), so the
/// user never sees a stack trace or a Swift error dump.
struct SDPortFailure: Error, Sendable, CustomStringConvertible {
    let code: SDPortExitCode
    let message: String

    init(_ code: SDPortExitCode, _ message: String) {
        self.code = code
        self.message = message
    }

    var description: String { message }
}
