import Foundation

/// What the quiz remembers about one question: its Leitner box, when it is due again, and how it went so far.
/// One entry of `QuizProgress.cards`, stored as JSON. Port addition, no SDWebImage counterpart.
struct QuizCardState: Codable, Sendable, Equatable {
    /// 1 (ask again now) … `QuizProgress.boxIntervals.count`.
    var box: Int
    /// Not asked before this moment, unless nothing else is due.
    var due: Date
    var asked: Int
    var missed: Int
    var last: QuizGrade
}
