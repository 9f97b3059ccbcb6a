import Foundation
import SDPort

/// Shows a download's progress: a bar redrawn in place on a terminal, a few plain lines otherwise (at 0 %, each
/// quarter, and the end), so logs stay readable.
final class ProgressDisplay: @unchecked Sendable {
    /// Guards `lastQuarter` and `drewBar`.
    private let lock = NSLock()
    private var lastQuarter = -1
    private var drewBar = false
    private let label: String
    private let terminal: Bool
    private let indent: String

    init(label: String, indent: String = "  ", terminal: Bool = Console.stdoutIsTerminal) {
        self.label = label
        self.terminal = terminal
        self.indent = indent
    }

    /// The block to pass as the manager's `progress`.
    var block: SDWebImageDownloaderProgressBlock {
        { [self] received, expected, _ in self.update(received: received, expected: expected) }
    }

    private func update(received: Int, expected: Int) {
        let fraction = expected > 0 ? min(1, Double(received) / Double(expected)) : nil
        if terminal {
            let width = 30
            let filled = fraction.map { Int($0 * Double(width)) } ?? 0
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            let percent = fraction.map { String(format: "%3.0f%%", $0 * 100) } ?? "  ?%"
            let size =
                "\(ByteCount.text(UInt64(max(0, received))))"
                + (expected > 0 ? " / \(ByteCount.text(UInt64(expected)))" : "")
            lock.withLock { drewBar = true }
            Console.outRaw("\r\(indent)\(label) [\(bar)] \(percent) \(size)\u{1B}[K")
            return
        }
        guard let fraction else { return }
        let quarter = Int(fraction * 4)
        let shouldPrint = lock.withLock { () -> Bool in
            guard quarter > lastQuarter else { return false }
            lastQuarter = quarter
            return true
        }
        if shouldPrint {
            Console.out("\(indent)progress \(label): \(received) of \(expected) bytes (\(quarter * 25) %)")
        }
    }

    /// Ends the bar's line (on a terminal), so the next output starts on a fresh line.
    func finish() {
        if lock.withLock({ drewBar }) { Console.outRaw("\r\u{1B}[K") }
    }
}
