import Foundation

/// Where the port answers a fact: a file under the package root, a piece of text on the line meant (the first line
/// containing it), and the Swift symbol that holds that line. The symbol is stored with the fact
/// (`Docs/knowledge/parity/ID.json`), so `sdport` names it without reading the sources; `scripts/docs.sh check` fails
/// when it is no longer what the text resolves to (`scripts/citations.py` `port_location`).
///
/// Port addition, no SDWebImage counterpart.
struct PortPlace: Codable, Sendable, Equatable {
    let file: String
    let anchor: String
    let symbol: String

    /// "Sources/SDPort/Cache/SDImageCache.swift · SDImageCache.init(namespace:diskCacheDirectory:)"; the file alone
    /// while no symbol is stored.
    var text: String { symbol.isEmpty ? file : "\(file) · \(symbol)" }
}
