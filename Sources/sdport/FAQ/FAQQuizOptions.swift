import Foundation

/// A card's multiple-choice options: the right one and three wrong ones built from the card's own traps, versions
/// and follow-ups, so that a learner cannot pass by spotting another topic's myth, a repeated option or the longest
/// text (`scripts/knowledge.py` checks the three rules across the cards; `QuizOptionTests` checks them on the quiz).
///
/// Port addition, no SDWebImage counterpart.
struct FAQQuizOptions: Codable, Sendable, Equatable {
    let right: String
    let wrong: [String]
}
