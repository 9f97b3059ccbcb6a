import Foundation
import SDPortTestServer

/// One situation `sdport lab` runs through the 4.4.8 flow and the 5.x flow: what the loopback server answers,
/// what the caller does, and which words name it on the myths page.
///
/// The scenarios are the ones an interviewer asks "what changed" about. Each is run, never described: the
/// outcome `sdport lab` prints comes from `LabRunner`. Port addition; the flows are `SDWebImageManager.m`
/// `-loadImageWithURL:options:progress:completed:` at 4.4.8
/// (https://github.com/SDWebImage/SDWebImage/blob/4.4.8/SDWebImage/SDWebImageManager.m#L117) and
/// `-loadImageWithURL:options:context:progress:completed:` at 5.21.5
/// (https://github.com/SDWebImage/SDWebImage/blob/5.21.5/SDWebImage/Core/SDWebImageManager.m#L189).
enum LabScenario: String, CaseIterable, Sendable {
    case notFound = "404"
    case cancel
    case twoCallers = "two-callers"
    case transformer
    case cacheOnlyMiss = "cache-only-miss"
    case undecodable
    case cancelAll = "cancel-all"

    /// One line for the list.
    var summary: String {
        switch self {
        case .notFound: return "the server answers 404 Not Found"
        case .cancel: return "the caller cancels while the server has not answered yet"
        case .twoCallers: return "two callers ask for one URL while its download runs (the server answers after 1 s)"
        case .transformer: return "a horizontal flip: 4.4.8's delegate transformDownloadedImage, 5.x's imageTransformer"
        case .cacheOnlyMiss: return "FromCacheOnly on an empty cache"
        case .undecodable: return "the server answers 200 image/png with bytes that are no image"
        case .cancelAll:
            return "the downloader cancels all downloads (cancelAllDownloads) while the server has not answered yet"
        }
    }

    /// The path served on the loopback server.
    var path: String {
        switch self {
        case .notFound: return "/missing.png"
        case .cancel: return "/never-answers.png"
        case .twoCallers: return "/shared.png"
        case .transformer: return "/flip.png"
        case .cacheOnlyMiss: return "/not-cached.png"
        case .undecodable: return "/text.png"
        case .cancelAll: return "/cancelled-below.png"
        }
    }

    /// What the server answers on `path`.
    var route: SDPortTestRoute {
        switch self {
        case .notFound: return .status(404)
        case .cancel, .cancelAll: return .stall
        // Long enough that the second caller's cache query ends while the first download still runs.
        case .twoCallers: return SDPortTestRoute.data(SampleImage.png, contentType: "image/png").delay(1)
        case .transformer, .cacheOnlyMiss: return .data(SampleImage.png, contentType: "image/png")
        case .undecodable: return .data(Data("this is not an image".utf8), contentType: "image/png")
        }
    }

    /// How many callers load the URL.
    var callers: Int { self == .twoCallers ? 2 : 1 }

    /// Words that tie a myth (`Myth.all`) to this scenario, looked for in its id, belief, truth and original.
    var mythWords: [String] {
        switch self {
        case .notFound: return ["404", "status code", "failedurl", "failed url", "failed-url", "blacklist"]
        case .cancel: return ["cancel"]
        case .twoCallers: return ["two callers", "same url", "coalesc", "urloperations", "one download"]
        case .transformer: return ["transform"]
        case .cacheOnlyMiss: return ["fromcacheonly", "cache only", "cacheonly"]
        case .undecodable:
            return ["0 pixels", "undecodable", "not an image", "bad data", "badimagedata", "cannot be decoded"]
        case .cancelAll: return ["cancelalldownloads", "cancel all", "cancels all", "below the manager"]
        }
    }

    /// How many of this scenario's words `myth` contains.
    func hits(in myth: Myth) -> Int {
        let text = [myth.id, myth.belief, myth.truth, myth.original].joined(separator: " ").lowercased()
        return mythWords.filter { text.contains($0) }.count
    }

    /// The myth about this scenario, if any: of the myths that share more words with it than with any other
    /// scenario (a tie goes to the scenario listed first, so a myth about the 404 that says "cancelled" stays with
    /// the 404), the one that shares the most, then one held in 4.0–4.2, then the first listed.
    func myth(in myths: [Myth] = Myth.all) -> Myth? {
        let mine = myths.enumerated().filter { _, myth in
            let counts = Self.allCases.map { $0.hits(in: myth) }
            guard let best = counts.max(), best > 0 else { return false }
            return Self.allCases[counts.firstIndex(of: best)!] == self
        }
        return mine.min { a, b in
            let keyA = (-hits(in: a.element), Self.heldInOlderVersions(a.element) ? 0 : 1, a.offset)
            let keyB = (-hits(in: b.element), Self.heldInOlderVersions(b.element) ? 0 : 1, b.offset)
            return keyA < keyB
        }?.element
    }

    /// Whether the myth says it held in 4.0, 4.1 or 4.2.
    static func heldInOlderVersions(_ myth: Myth) -> Bool {
        ["4.0", "4.1", "4.2"].contains { myth.trueIn.contains($0) }
    }
}
