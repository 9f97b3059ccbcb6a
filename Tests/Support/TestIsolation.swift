import Foundation
import SDPortTestIsolation

/// Where the test process's home went: `Tests/Isolation/isolation.c` moves HOME, XDG_CACHE_HOME,
/// XDG_DATA_HOME and XDG_CONFIG_HOME into a fresh temporary folder before `main`, so no test (and no `sdport`
/// process a test starts) touches the real home's caches. Not a port of anything: test support only.
public enum TestIsolation {
    /// The private home, or nil if the constructor could not make one (it then ends the process instead).
    public static var home: String? {
        sdport_test_isolated_home().map { String(cString: $0) }
    }
}
