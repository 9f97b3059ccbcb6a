import Foundation
import SDPortKnowledge

/// The facts `sdport` teaches, read from its resource bundle (`SDPortKnowledge`, built from `Docs/knowledge`): the
/// FAQ cards with their drills, the myths, and each card's citations from its parity ID. Read once per process.
///
/// A binary without its bundle fails here, with `SDPortExitCode.missingFiles` and where it looked: the commands
/// that teach load this first, so none of them prints less than it should.
///
/// Port addition, no SDWebImage counterpart.
struct Knowledge: Sendable {
    let faq: [FAQEntry]
    let myths: [Myth]

    /// The bundle's knowledge, or the failure that says what is missing or malformed.
    static func load() throws -> Knowledge {
        try loaded.get()
    }

    /// Immutable once made; a `static let` is initialised once, thread-safely.
    private static let loaded: Result<Knowledge, SDPortFailure> = {
        do {
            return .success(try read())
        } catch let failure as SDPortFailure {
            return .failure(failure)
        } catch {
            return .failure(SDPortFailure(.missingFiles, "\(error)"))
        }
    }()

    private static func read() throws -> Knowledge {
        do {
            let decoder = JSONDecoder()
            let index = try decoder.decode(KnowledgeIndex.self, from: SDPortKnowledge.data("index.json"))
            var faq: [FAQEntry] = []
            for id in index.faq {
                var entry = try decode(FAQEntry.self, "faq/\(id).json", decoder)
                let item = try decode(ParityItem.self, "parity/\(id).json", decoder)
                guard let port = item.port, item.planned != true else {
                    throw SDPortFailure(
                        .missingFiles, "Docs/knowledge/parity/\(id).json has no port anchor for its FAQ card")
                }
                entry.port = port
                entry.original = (item.original ?? []).joined(separator: "; ")
                entry.original5 = item.original5.map { $0.joined(separator: "; ") }
                faq.append(entry)
            }
            let myths = try index.myths.map { try decode(Myth.self, "myths/\($0).json", decoder) }
            guard !OriginalLineTable.lines.isEmpty, !OriginalLineTable.lines5.isEmpty else {
                throw SDPortFailure(
                    .missingFiles, "the original's line tables are missing from \(SDPortKnowledge.bundleName)")
            }
            return Knowledge(faq: faq, myths: myths)
        } catch let failure as SDPortFailure {
            throw failure
        } catch {
            throw SDPortFailure(.missingFiles, error.localizedDescription)
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ path: String, _ decoder: JSONDecoder) throws -> T {
        do {
            return try decoder.decode(type, from: SDPortKnowledge.data(path))
        } catch let error as DecodingError {
            throw SDPortFailure(.missingFiles, "Docs/knowledge/\(path) is malformed: \(error)")
        }
    }
}
