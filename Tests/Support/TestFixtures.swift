import Foundation

/// Finds the repository's `Fixtures/` folder from this source file's location, so tests read the project's
/// own images (never a file outside the repository) whatever the working directory is.
public enum TestFixtures {
    /// The `Fixtures/` directory at the package root.
    public static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("Fixtures", isDirectory: true)

    /// The URL of a fixture file.
    public static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// The bytes of a fixture file; fails the calling test with a clear message when it is missing.
    public static func data(_ name: String) throws -> Data {
        try Data(contentsOf: url(name))
    }
}
