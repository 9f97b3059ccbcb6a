import Foundation
import SDPort

/// libFuzzer's entry points for every SDPort harness (built only by `scripts/fuzz.sh`, see Fuzz/README.md).
///
/// One binary serves every target; `SDPORT_FUZZ_TARGET` chooses which, so each run's coverage is that
/// target's alone. A harness reports a bug by trapping (`preconditionFailure`), which libFuzzer records as a
/// crash with the input that caused it; AddressSanitizer adds memory errors, and libFuzzer's `-malloc_limit_mb`
/// catches a decompression bomb that allocates before refusing.
enum FuzzEntry {
    static let target: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["SDPORT_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: " ")
            FileHandle.standardError.write(Data("SDPORT_FUZZ_TARGET must be one of: \(names)\n".utf8))
            exit(2)
        }
        return target
    }()
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    FuzzEntry.target.prepare()
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    FuzzEntry.target.run(data)
    return 0
}
