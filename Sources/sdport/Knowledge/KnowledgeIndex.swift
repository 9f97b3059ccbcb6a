import Foundation

/// `Docs/knowledge/index.json`: the order of the items of each folder (the parity spec's sections too, which
/// `sdport` does not need and does not decode).
///
/// Port addition, no SDWebImage counterpart.
struct KnowledgeIndex: Decodable, Sendable {
    /// "FAQ-01" … in the order `sdport faq` prints them.
    let faq: [String]
    /// Myth ids in the order of the myths page.
    let myths: [String]
}
