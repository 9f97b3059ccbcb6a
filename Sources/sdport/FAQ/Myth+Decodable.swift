import Foundation

/// Reads `Docs/knowledge/myths/<id>.json`, whose `original` lists the deciding lines one by one.
extension Myth: Decodable {
    private enum Keys: String, CodingKey {
        case id, topic, belief, source, trueIn, truth, original, test, then
    }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            topic: try container.decode(String.self, forKey: .topic),
            belief: try container.decode(String.self, forKey: .belief),
            source: try container.decode(String.self, forKey: .source),
            trueIn: try container.decode(String.self, forKey: .trueIn),
            truth: try container.decode(String.self, forKey: .truth),
            original: try container.decode([String].self, forKey: .original).joined(separator: "; "),
            test: try container.decode(String.self, forKey: .test),
            then: try container.decodeIfPresent(String.self, forKey: .then))
    }
}
