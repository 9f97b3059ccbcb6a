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
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    FuzzEntry.target.prepare()
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    FuzzEntry.target.run(data)
    return 0
}

/// libFuzzer's driver (FuzzerDriver.cpp). No Swift module declares it, and the executable does not export it for
/// `dlsym`, so it is named directly; its arguments (two pointers and a C function pointer, an int result) are
/// passed the same way by Swift's and C's calling conventions on x86-64 and arm64.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// SwiftPM links an executable with `main` defined as `<product>_main` (so tests can import executables), which
/// keeps libFuzzer's own `main` out of the link; this is that function, and it hands over to libFuzzer's driver.
@_cdecl("sdport_fuzz_main")
public func sdportFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { start, size in fuzzerTestOneInput(start, size) }
}
