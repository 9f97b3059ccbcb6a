import Foundation
import XCTest

@testable import SDPort

/// The queue object behind the label test of INT-01 (`DispatchQueue.sd_dispatchObject`), read at its place in the
/// object rather than through `Mirror` on every call.
final class INT01_QueueObjectTests: XCTestCase {
    /// Parity: INT-01 — the label test compares the right queue objects: the one read directly is, for every kind
    /// of queue, the one `Mirror` finds, and on this toolchain the direct read is the one in use.
    func test_INT01_queueObjectReadDirectlyIsTheWrappedOne() {
        let headerSize = 2 * MemoryLayout<UnsafeRawPointer>.stride
        XCTAssertEqual(DispatchQueue.wrappedOffset, headerSize, "the layout probe found the property")
        let serial = DispatchQueue(label: "sdport.test.int01.object")
        let queues: [DispatchQueue] = [
            .main, .global(), .global(qos: .utility), serial,
            DispatchQueue(label: "sdport.test.int01.object.child", target: serial),
            DispatchQueue(label: "sdport.test.int01.object.concurrent", attributes: .concurrent),
        ]
        for queue in queues {
            let mirrored = Mirror(reflecting: queue).descendant("__wrapped") as? OpaquePointer
            XCTAssertNotNil(mirrored, queue.label)
            XCTAssertEqual(queue.sd_dispatchObject, mirrored.map(UnsafeMutableRawPointer.init), queue.label)
        }
        XCTAssertNotEqual(serial.sd_dispatchObject, queues[4].sd_dispatchObject, "a child is its own queue")
    }
}
