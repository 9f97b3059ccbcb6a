import Foundation

/// A question an interviewer asks after a card's 30-second answer (another version, another platform or build, a
/// failure or a race), its short answer, and the original's line that decides it (`FAQOriginalLine`). `sdport faq`
/// prints them after the short answer, the Markdown and DocC cards show them, and `sdport quiz` asks them after the
/// card's main question.
///
/// Port addition, no SDWebImage counterpart.
struct FAQFollowUp: Codable, Sendable, Equatable {
    let question: String
    let answer: String
    let original: FAQOriginalLine
}
