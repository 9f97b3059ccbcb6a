import Foundation

/// One asked question as `sdport quiz --json` prints it (one JSON object per line). Port addition.
struct QuizRecord: Codable, Sendable {
    let id: String
    let topic: String
    let question: String
    let kind: String
    /// The choices shown, for a multiple-choice question.
    let choices: [String]?
    /// What the learner typed (a line in a pipe), if anything.
    let response: String?
    let grade: QuizGrade
    let answer: String
    let live: String
    let port: String
    let original: [String]
    let original5: [String]
    let test: String
    let box: Int
    let due: Date?
    /// The follow-ups asked after the main question, in order (empty when it was not scored).
    let followUps: [QuizFollowUpRecord]

    func jsonLine() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
