import Foundation

/// One ID of the parity spec, as `Docs/knowledge/parity/ID.json` holds it: the behaviour, whether it is only planned,
/// and for a built ID its anchors — the port's place and the original's symbols at 4.4.8 ("File.m -a:, -b:"), or at
/// 5.21.5 ("Core/File.m -a:") for what 4.4.8 does not have. `sdport` reads it for the FAQ cards' citations (an FAQ
/// card's port and original are those of its ID); `scripts/parity_spec.py` reads the same file for the ledger.
///
/// Port addition, no SDWebImage counterpart.
struct ParityItem: Decodable, Sendable {
    let id: String
    let spec: String
    var planned: Bool? = nil
    var port: PortPlace? = nil
    var original: [String]? = nil
    var original5: [String]? = nil
}
