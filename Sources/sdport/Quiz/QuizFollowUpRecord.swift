import Foundation

/// One follow-up as `sdport quiz --json` reports it inside its card's record: the question, the answer and its
/// deciding line, what the learner typed (a pipe) and how it was scored. Port addition.
struct QuizFollowUpRecord: Codable, Sendable, Equatable {
    let question: String
    let answer: String
    /// The deciding line's GitHub link at its tag.
    let original: String
    let response: String?
    let grade: QuizGrade
}
