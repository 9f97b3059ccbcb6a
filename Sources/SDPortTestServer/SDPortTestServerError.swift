import Foundation

/// Why `SDPortTestServer` or `SDPortTestTLS` could not do what was asked. Port test infrastructure.
public enum SDPortTestServerError: Error, CustomStringConvertible, Sendable {
    /// `openssl` failed (or is missing: scripts/setup-debian.sh installs it); carries its exit status and output.
    case certificateGenerationFailed(status: Int32, output: String)
    /// The listening socket reported no port after binding.
    case noBoundPort

    public var description: String {
        switch self {
        case .certificateGenerationFailed(let status, let output):
            return "openssl could not make a self-signed certificate (exit status \(status)): \(output)"
        case .noBoundPort:
            return "the test server's listening socket has no port"
        }
    }
}
