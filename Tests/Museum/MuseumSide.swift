import Foundation
import XCTest

/// Which side of the bug museum this test run shows. The port's library has no switch for the museum: the
/// exhibits' patches (`Museum/MUS-NN/fix.patch` or `regress.patch`) are applied to a scratch copy by
/// `scripts/museum.sh verify`, which then runs these tests with `SDPORT_MUSEUM=patched`. Without the variable the
/// tests of the port as it is run and the patched side skips; with it, the reverse.
enum MuseumSide {
    /// The environment variable that selects the patched side.
    static let variable = "SDPORT_MUSEUM"

    /// Whether this run is on a patched copy (`SDPORT_MUSEUM=patched`).
    static var isPatched: Bool { ProcessInfo.processInfo.environment[variable] == "patched" }

    /// Skips unless the run is on the port as it is (the faithful side of a fix exhibit, the fixed side of a
    /// regress exhibit).
    static func requireUnpatched(_ exhibit: String) throws {
        if isPatched {
            throw XCTSkip(
                "\(exhibit): this side runs on the port as it is; unset \(variable) (now \(variable)=patched)")
        }
    }

    /// Skips unless the run is on a copy with the exhibit's patch applied.
    static func requirePatched(_ exhibit: String) throws {
        if !isPatched {
            throw XCTSkip(
                "\(exhibit): this side needs Museum/\(exhibit)'s patch; run scripts/museum.sh verify "
                    + "(it applies the patch and sets \(variable)=patched)")
        }
    }
}
