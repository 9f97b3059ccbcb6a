import Foundation
import Synchronization

/// A certificate and private key (PEM files) for serving HTTPS from `SDPortTestServer(tls:)`.
///
/// Port test infrastructure: the original's tests reach real HTTPS hosts; the port proves its TLS handling
/// (verification by default, `AllowInvalidSSLCertificates` to relax it) against a loopback server whose
/// certificate a client does not trust unless told to (`curl --cacert certificatePath`, or libcurl's
/// CURLOPT_CAINFO).
public struct SDPortTestTLS: Sendable {
    public let certificatePath: String
    public let privateKeyPath: String

    public init(certificatePath: String, privateKeyPath: String) {
        self.certificatePath = certificatePath
        self.privateKeyPath = privateKeyPath
    }

    /// A self-signed RSA certificate for CN=127.0.0.1 with subjectAltName IP:127.0.0.1, valid for 2 days,
    /// made by running `openssl req -x509` once per process into a temporary directory that is removed when
    /// the process exits. Every server in the process shares it (no test needs its own key, and each openssl
    /// run costs tens of milliseconds). Throws `SDPortTestServerError.certificateGenerationFailed` when
    /// openssl fails.
    public static func selfSigned() throws -> SDPortTestTLS {
        try processCertificate.get()
    }

    /// The process's certificate, made on first use (a `static let` is initialised once, thread-safely).
    private static let processCertificate: Result<SDPortTestTLS, Error> = Result {
        let tls = try makeSelfSigned()
        tlsDirectoryToRemove.withLock {
            $0 = URL(fileURLWithPath: tls.certificatePath).deletingLastPathComponent().path
        }
        atexit {
            if let directory = SDPortTestTLS.tlsDirectoryToRemove.withLock({ $0 }) {
                try? FileManager.default.removeItem(atPath: directory)
            }
        }
        return tls
    }

    /// The directory `atexit` removes, guarded by its own mutex.
    private static let tlsDirectoryToRemove = Mutex<String?>(nil)

    private static func makeSelfSigned() throws -> SDPortTestTLS {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("sdport-tls-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let certificate = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            "-keyout", key, "-out", certificate,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // Read before waiting so a chatty openssl can never block on a full pipe.
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            FileManager.default.fileExists(atPath: certificate),
            FileManager.default.fileExists(atPath: key)
        else {
            throw SDPortTestServerError.certificateGenerationFailed(status: process.terminationStatus, output: text)
        }
        return SDPortTestTLS(certificatePath: certificate, privateKeyPath: key)
    }
}
