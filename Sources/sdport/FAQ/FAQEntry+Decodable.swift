import Foundation

/// Reads a card of `Docs/knowledge/faq/FAQ-NN.json`. Its port and original citations are not in the card: `Knowledge`
/// fills them in from the parity ID of the same number.
extension FAQEntry: Decodable {
    private enum Keys: String, CodingKey {
        case id, question, short, followUps, answer, tests, oneLine, trap, versions, topic, deciding, drill, quiz
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let id = try container.decode(String.self, forKey: .id)
        guard id.hasPrefix("FAQ-"), let number = Int(id.dropFirst(4)) else {
            throw DecodingError.dataCorruptedError(forKey: .id, in: container, debugDescription: "\(id) is not FAQ-NN")
        }
        self.init(
            number: number, question: try container.decode(String.self, forKey: .question),
            answer: try container.decode(String.self, forKey: .answer),
            tests: try container.decode([String].self, forKey: .tests))
        short = try container.decodeIfPresent(String.self, forKey: .short)
        followUps = try container.decodeIfPresent([FAQFollowUp].self, forKey: .followUps) ?? []
        quiz = try container.decodeIfPresent(FAQQuizOptions.self, forKey: .quiz)
        oneLine = try container.decodeIfPresent(String.self, forKey: .oneLine)
        trap = try container.decodeIfPresent(String.self, forKey: .trap)
        versions = try container.decodeIfPresent(String.self, forKey: .versions)
        topic = try container.decodeIfPresent(String.self, forKey: .topic)
        deciding = try container.decodeIfPresent([String].self, forKey: .deciding).map { $0.joined(separator: "; ") }
        drill = try container.decodeIfPresent(Drill.self, forKey: .drill)
        drill?.faq = number
    }
}
