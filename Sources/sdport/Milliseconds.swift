import Foundation

/// Elapsed time for the command's output.
enum Milliseconds {
    /// Milliseconds since `start` (a `DispatchTime`), as a Double.
    static func since(_ start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1_000_000
    }

    /// "0.42 ms", "12.3 ms", "1204 ms".
    static func text(_ value: Double) -> String {
        if value < 1 { return String(format: "%.2f ms", value) }
        if value < 100 { return String(format: "%.1f ms", value) }
        return String(format: "%.0f ms", value)
    }
}
