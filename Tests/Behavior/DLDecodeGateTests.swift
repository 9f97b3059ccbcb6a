import Foundation
@testable import SDPort
import SDPortTestSupport
import XCTest

/// `SDWebImageDecodeGate` (port addition, issue 13): operations' final decodes run at most as many at once as
/// there are cores, so they finish one by one and each downloader slot opens as soon as its image is ready.
final class DLDecodeGateTests: XCTestCase {
    func test_DL_decodeGateRunsAtMostOneDecodePerCore() {
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let counts = Locked((active: 0, highest: 0))
        let release = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        let done = expectation(description: "every decode ran")
        done.expectedFulfillmentCount = cores + 2
        for _ in 0..<(cores + 2) {
            DispatchQueue.global().async {
                SDWebImageDecodeGate.run {
                    counts.update { $0.active += 1; $0.highest = max($0.highest, $0.active) }
                    entered.signal()
                    release.wait()
                    counts.update { $0.active -= 1 }
                }
                done.fulfill()
            }
        }
        // Every core's permit is taken, and the gate holds the rest back while they are.
        for _ in 0..<cores { XCTAssertEqual(entered.wait(timeout: .now() + 10), .success) }
        XCTAssertEqual(entered.wait(timeout: .now() + 0.2), .timedOut, "a decode got past the gate with every core busy")
        XCTAssertEqual(counts.value.active, cores)
        for _ in 0..<(cores + 2) { release.signal() }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(counts.value.highest, cores)
    }
}
