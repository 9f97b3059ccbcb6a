import Foundation

/// The quiz's progress: one `QuizCardState` per question asked, kept in a small JSON file.
///
/// Where: `$XDG_STATE_HOME/sdport/quiz.json`, else `~/.local/state/sdport/quiz.json` (the XDG base directory
/// rule for state that should survive a restart but is not worth backing up). Written whole to a temporary file and
/// renamed over the old one, so an interrupted run never leaves half a file.
///
/// Spaced repetition is a Leitner scheme with five boxes. A new question starts in box 1. Missed: back to box 1,
/// due at once (it comes back in the same session, though never twice in a row). Knew it: up one box. Easy: up
/// two. A question in box N is not asked again for `boxIntervals[N-1]`: 0, 1, 3, 7, 21 days. `next` asks the due
/// question in the lowest box (unseen questions count as box 1), choosing at random among equals; when nothing is
/// due it practises ahead with the question due soonest. Port addition, no SDWebImage counterpart.
struct QuizProgress: Codable, Sendable, Equatable {
    static let boxIntervals: [TimeInterval] = [0, 1, 3, 7, 21].map { $0 * 86_400 }
    static let fileName = "quiz.json"

    var version = 1
    /// Keyed by the parity ID ("FAQ-05").
    var cards: [String: QuizCardState] = [:]

    /// The directory the state lives in, from the environment given (the process's own by default).
    static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state, isDirectory: true).appendingPathComponent("sdport", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".local/state/sdport", isDirectory: true)
    }

    static func file(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        directory(environment: environment).appendingPathComponent(fileName)
    }

    /// The progress in `file`; empty when there is none yet. A file that is not this JSON is an error (it is
    /// left alone: `--reset` removes it).
    static func load(from file: URL) throws -> QuizProgress {
        guard FileManager.default.fileExists(atPath: file.path) else { return QuizProgress() }
        do {
            let data = try Data(contentsOf: file)
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(QuizProgress.self, from: data)
        } catch {
            throw SDPortFailure(
                .cacheDirectoryUnusable,
                "cannot read the quiz progress in \(file.path) (\(Self.reason(error))); "
                    + "`sdport quiz --reset` starts over")
        }
    }

    /// Writes the progress to `file` atomically, creating its directory.
    func save(to file: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.dateEncodingStrategy = .iso8601
        do {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try encoder.encode(self).write(to: file, options: .atomic)
        } catch {
            throw SDPortFailure(
                .cacheDirectoryUnusable,
                "cannot write the quiz progress to \(file.path): \(CacheFactory.reason(of: error))")
        }
    }

    private static func reason(_ error: Error) -> String {
        if error is DecodingError { return "not the quiz's JSON" }
        return CacheFactory.reason(of: error)
    }

    // MARK: Leitner boxes

    /// Moves question `id` by `grade` at `now`; `unscored` changes nothing.
    mutating func record(_ grade: QuizGrade, for id: String, at now: Date) {
        guard grade != .unscored else { return }
        var state = cards[id] ?? QuizCardState(box: 1, due: now, asked: 0, missed: 0, last: .unscored)
        switch grade {
        case .missed:
            state.box = 1
            state.missed += 1
        case .knew:
            state.box = min(Self.boxIntervals.count, state.box + 1)
        case .easy:
            state.box = min(Self.boxIntervals.count, state.box + 2)
        case .unscored:
            break
        }
        state.asked += 1
        state.last = grade
        state.due = now.addingTimeInterval(Self.boxIntervals[state.box - 1])
        cards[id] = state
    }

    /// The box of question `id` (1 when never scored).
    func box(of id: String) -> Int { cards[id]?.box ?? 1 }

    /// The question to ask next among `ids`, not `avoiding` unless it is the only one; nil for no ids. `practisingAhead`
    /// is true when none was due.
    func next<R: RandomNumberGenerator>(
        among ids: [String], avoiding: String?, at now: Date,
        using generator: inout R
    ) -> (id: String, practisingAhead: Bool)? {
        let pool = ids.count > 1 ? ids.filter { $0 != avoiding } : ids
        guard !pool.isEmpty else { return nil }
        let due = pool.filter { (cards[$0]?.due ?? now) <= now }
        if !due.isEmpty {
            let lowest = due.map { box(of: $0) }.min() ?? 1
            let candidates = due.filter { box(of: $0) == lowest }
            return (candidates.randomElement(using: &generator) ?? candidates[0], false)
        }
        let soonest = pool.min { (cards[$0]?.due ?? now, $0) < (cards[$1]?.due ?? now, $1) } ?? pool[0]
        return (soonest, true)
    }
}
