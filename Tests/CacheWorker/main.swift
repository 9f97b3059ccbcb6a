import Foundation
import SDPortCacheWorkload
import SDPortTestIsolation  // its constructor gives the worker a private home, as it does the test binaries

// The cache tests' child process (not a test):
//   sdport-cache-worker store DIR COUNT [FIRST]     store COUNT payloads (from key FIRST, default 0) one after another
//   sdport-cache-worker mixed DIR SEED OPS KEYS     a mixed run on DIR; prints its report as one JSON line
_ = sdport_test_isolated_home()  // links the isolation constructor in
let arguments = CommandLine.arguments.dropFirst()
do {
    switch (arguments.first, arguments.count) {
    case ("store", 3), ("store", 4):
        let values = Array(arguments)
        try CacheWorkload.storeAll(
            in: values[1], count: Int(values[2]) ?? 0, first: values.count == 4 ? Int(values[3]) ?? 0 : 0)
    case ("mixed", 5):
        let values = Array(arguments)
        let report = try CacheWorkload.mixed(
            in: values[1], seed: UInt64(values[2]) ?? 1, operations: Int(values[3]) ?? 0,
            keys: Int(values[4]) ?? 1)
        print(String(decoding: try JSONEncoder().encode(report), as: UTF8.self))
    default:
        FileHandle.standardError.write(
            Data("usage: sdport-cache-worker store DIR COUNT [FIRST] | mixed DIR SEED OPS KEYS\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("sdport-cache-worker: \(error)\n".utf8))
    exit(1)
}
