import Foundation

/// Where the quiz reads the learner's answers: single keys from a terminal, or whole lines from a pipe or file.
///
/// In a terminal (stdin and stdout both ttys) a key is read without waiting for Return and without echo; the
/// terminal's settings are changed only for that one read and restored at once, and with signals off during the
/// read, Ctrl-C and Ctrl-D come back as keys (the quiz quits) rather than leaving the terminal in raw mode.
/// Otherwise each answer is one line of stdin; at the end of the input `line()` returns nil at once, so the quiz
/// never waits for input that cannot come. Only the quiz's own thread reads stdin. Port addition.
struct QuizInput: Sendable {
    /// Whether keys come from a terminal (both stdin and stdout are ttys).
    let isTerminal: Bool

    static func standard() -> QuizInput {
        QuizInput(isTerminal: isatty(STDIN_FILENO) != 0 && isatty(STDOUT_FILENO) != 0)
    }

    /// One key from the terminal, lowercased; "q" for Ctrl-C, Ctrl-D, the end of the input or a read error.
    /// `prompt` is printed once the terminal is in key mode, so a key pressed as soon as it shows is never
    /// taken as the start of a line.
    func key(prompt: String = "") -> String {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else {
            Console.outRaw(prompt)
            return line().map { String($0.prefix(1)).lowercased() } ?? "q"
        }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        defer { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        if !prompt.isEmpty { Console.outRaw(prompt) }
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count == 1 { break }
            if count < 0 && errno == EINTR { continue }
            return "q"
        }
        if byte == 3 || byte == 4 { return "q" }  // Ctrl-C, Ctrl-D
        if byte == 13 || byte == 10 { return "\n" }
        return String(UnicodeScalar(byte)).lowercased()
    }

    /// One line of stdin without its newline; nil at the end of the input.
    func line() -> String? {
        readLine(strippingNewline: true)
    }
}
