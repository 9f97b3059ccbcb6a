/// How one question went, as the learner scored it (free recall) or as the choice was scored (multiple choice).
///
/// The Leitner box moves by it (`QuizProgress.record`): `missed` back to box 1, `knew` up one box, `easy` up two.
/// `unscored` (the input ended before a score) changes nothing. Port addition, no SDWebImage counterpart.
enum QuizGrade: String, Sendable, Codable {
    case missed, knew, easy, unscored

    /// The grade a free-recall key or line stands for: y(es), n(o), e(asy); nil for anything else.
    static func fromRecall(_ text: String) -> QuizGrade? {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "y", "yes": return .knew
        case "n", "no": return .missed
        case "e", "easy": return .easy
        default: return nil
        }
    }
}
