import ArgumentParser
import Foundation

/// The five topics `sdport quiz --topic` selects from.
///
/// A card's topic is `FAQEntry.topic` when the teaching work has set it; until then it is derived from the folder
/// of the entry's port file (Cache, Downloader, Manager, WebCache for the views, Coders). Files of the shared
/// folders (Define, Internal) go by what they define: image formats belong to the coders, cache types to the
/// cache, option bits and the main-queue helper to the manager. Not a port of an SDWebImage type: 4.4.8 keeps its
/// files in one flat folder (https://github.com/SDWebImage/SDWebImage/tree/4.4.8/SDWebImage); the topics loosely
/// follow the groups of its Xcode project (Cache, Downloader, Utils with the manager, Categories, Decoder).
enum QuizTopic: String, CaseIterable, Sendable, Codable, ExpressibleByArgument {
    case cache, downloader, manager, views, coders

    /// The topic of `entry`: its own field when set and known, else derived from its port file.
    static func of(_ entry: FAQEntry) -> QuizTopic {
        if let named = entry.topic.flatMap({ QuizTopic(rawValue: $0.lowercased()) }) { return named }
        return derived(fromPortFile: entry.port.file)
    }

    /// The topic a file of the port belongs to, from its folder under Sources/SDPort (then its name).
    static func derived(fromPortFile path: String) -> QuizTopic {
        let parts = path.split(separator: "/").map(String.init)
        let folders: [String: QuizTopic] = [
            "Cache": .cache, "Downloader": .downloader, "Manager": .manager, "WebCache": .views, "Coders": .coders,
        ]
        for part in parts.reversed() {
            if let topic = folders[part] { return topic }
        }
        let name = parts.last ?? path
        if name.contains("ImageContentType") || name.contains("ImageFormat") || name.contains("Coder") {
            return .coders
        }
        if name.contains("Cache") { return .cache }
        if name.contains("Download") { return .downloader }
        if name.contains("View") || name.contains("WebCache") { return .views }
        return .manager
    }
}
