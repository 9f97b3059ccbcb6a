import Foundation
import SDPort
import SDPortCacheWorkload
import SDPortTestSupport
import XCTest

/// Several processes sharing one cache directory (port addition; chapter 08): 4.4.8 assumes one process per cache
/// folder, a Linux service often runs several workers over one. Four `sdport-cache-worker mixed` processes run 2 000
/// mixed operations each (stores, reads of the bytes and of the image, removals, `deleteOldFiles`, `clearDisk`) on
/// one directory at once, over 40 shared keys.
final class CACHEMultiProcessTests: XCTestCase {
    static let workers = 4
    static let operations = 2_000
    static let keys = 40

    /// Every worker exits normally, no read ever returns bytes other than its key's payload (whole data or a
    /// miss), and afterwards no file under a cache name is torn.
    func test_CACHEMULTI_fourProcessesShareOneDirectory() throws {
        let directory = try TemporaryDirectory(prefix: "sdport-multi")
        defer { directory.remove() }
        let worker = try CLIProcess.executable("sdport-cache-worker")
        var children: [ChildProcess] = []
        for index in 0..<Self.workers {
            children.append(try ChildProcess(
                executable: worker,
                arguments: ["mixed", directory.path, String(1000 + index), String(Self.operations), String(Self.keys)],
                environment: ProcessInfo.processInfo.environment.merging(["SDPORT_TEST_HOME_PARENT": directory.path]) { $1 }))
        }
        var total = CacheWorkload.Report()
        for (index, child) in children.enumerated() {
            let exit = try child.wait(deadline: 300)
            let errors = child.text(2)
            XCTAssertEqual(exit.reason, .exit, "worker \(index) was not killed by a signal: \(errors)")
            XCTAssertEqual(exit.code, 0, "worker \(index): \(errors)")
            let report = try JSONDecoder().decode(CacheWorkload.Report.self, from: child.data(1))
            XCTAssertEqual(report.wrongReads, 0, "worker \(index) read bytes that were not its key's payload")
            total = total.adding(report)
        }
        XCTAssertEqual(total.stores + total.hits + total.misses > 0, true)
        XCTAssertGreaterThan(total.hits, 0, "reads found files the other workers wrote")
        XCTAssertGreaterThan(total.clears, 0, "clearDisk ran while others wrote")
        let cachePath = CacheWorkload.cache(in: directory.path).diskCachePath
        XCTAssertEqual(try CacheWorkload.tornFiles(in: cachePath, keys: Self.keys), [], "no torn file under a cache name")
        print("multi-process: \(total.stores) stores (\(total.storeFailures) failed), \(total.hits) hits, \(total.misses) misses, \(total.clears) clears")
    }
}
