import Foundation
import XCTest

/// Fixture helpers for main-actor tests, which cannot throw (a throwing `@MainActor` test method crashes
/// XCTest's test listing on Linux): a missing fixture fails the calling test instead of throwing.
extension ManagerTestEnvironment {
    /// `serveFixture` that fails the test when the fixture is missing.
    public func serveOrFail(_ name: String, at path: String? = nil, file: StaticString = #filePath, line: UInt = #line)
        -> URL
    {
        do {
            return try serveFixture(name, at: path)
        } catch {
            XCTFail("fixture \(name): \(error)", file: file, line: line)
            return server.url("/missing-fixture")
        }
    }
}

extension TestFixtures {
    /// `data(_:)` that fails the test when the fixture is missing.
    public static func dataOrFail(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> Data {
        do {
            return try data(name)
        } catch {
            XCTFail("fixture \(name): \(error)", file: file, line: line)
            return Data()
        }
    }
}
