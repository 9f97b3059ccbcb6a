import Foundation

/// A fresh directory under the system's temporary directory, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    public let url: URL

    public init(prefix: String = "sdport-test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public var path: String { url.path }

    public func remove() {
        // Make every folder writable again first, so tests that made one read-only still clean up.
        if let walker = FileManager.default.enumerator(atPath: url.path) {
            for case let relative as String in walker {
                _ = try? FileManager.default.setAttributes(
                    [.posixPermissions: 0o755],
                    ofItemAtPath: url.appendingPathComponent(relative).path)
            }
        }
        _ = try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        try? FileManager.default.removeItem(at: url)
    }
}
