import Foundation
import SDPortKnowledge

/// The original's lines: `Docs/knowledge/original-lines.tsv` (made by `scripts/original-lines.py` from SDWebImage's source
/// at tag 4.4.8) turns a reference such as "SDImageCache.m -deleteOldFilesWithCompletionBlock:" into
/// `SDWebImage/SDImageCache.m:645` and a link to that line of the original's repository at tag 4.4.8.
/// `Docs/knowledge/original-lines-5.21.5.tsv` (`--tag 5.21.5`) does the same at tag 5.21.5 for references whose files are
/// paths under SDWebImage/ ("Core/SDImageCache.m -initWithNamespace:diskCacheDirectory:config:").
///
/// A reference names a file, then symbols of that file separated by ", "; several files are separated by "; ".
/// A method is `-selector:` or `+selector`, anything else (a property, type, macro, constant) its name. A
/// method declared in a header resolves to its implementation in the `.m` when that file has it. Both tables are
/// read from the knowledge bundle (`SDPortKnowledge`), never from a checkout.
enum OriginalLineTable {
    static let repository = "https://github.com/SDWebImage/SDWebImage/blob/4.4.8/SDWebImage/"
    static let repository5 = "https://github.com/SDWebImage/SDWebImage/blob/5.21.5/SDWebImage/"

    /// One resolved symbol, at tag 4.4.8 unless `tag` says 5.21.5.
    struct Citation: Equatable {
        let file: String
        let symbol: String
        let line: Int
        var tag = "4.4.8"
        /// The last line of a deciding range ("#L324-328"), nil for one line.
        var lastLine: Int? = nil
        var location: String { "SDWebImage/\(file):\(line)" + (lastLine.map { "-\($0)" } ?? "") }
        var link: String {
            "\(tag == "4.4.8" ? OriginalLineTable.repository : OriginalLineTable.repository5)\(file)#L\(line)"
                + (lastLine.map { "-L\($0)" } ?? "")
        }
    }

    /// (file, symbol) → line, from the knowledge bundle; empty when the bundle is missing, which `Knowledge.load()`
    /// reports (every command that cites the original loads it first).
    static let lines: [String: Int] = load("original-lines.tsv")
    /// The same at tag 5.21.5.
    static let lines5: [String: Int] = load("original-lines-5.21.5.tsv")

    private static func load(_ path: String) -> [String: Int] {
        guard let data = try? SDPortKnowledge.data(path) else { return [:] }
        let text = String(decoding: data, as: UTF8.self)
        var table: [String: Int] = [:]
        for row in text.split(separator: "\n") where !row.hasPrefix("#") {
            let fields = row.split(separator: "\t")
            if fields.count == 3, let line = Int(fields[2]) { table["\(fields[0])\t\(fields[1])"] = line }
        }
        return table
    }

    /// The (file, symbol) pairs a reference names, in order.
    static func symbols(in reference: String) -> [(file: String, symbol: String)] {
        var result: [(String, String)] = []
        for part in reference.split(separator: ";") {
            let words = part.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
            guard words.count == 2 else { continue }
            let file = String(words[0])
            for symbol in words[1].split(separator: ",") {
                result.append((file, symbol.trimmingCharacters(in: .whitespaces)))
            }
        }
        return result
    }

    /// Where `symbol` of `file` is defined: the `.m` of a header's method when it is implemented there.
    static func citation(file: String, symbol: String) -> Citation? {
        if file.hasSuffix(".h") {
            let implementation = String(file.dropLast(2)) + ".m"
            if let line = lines["\(implementation)\t\(symbol)"] {
                return Citation(file: implementation, symbol: symbol, line: line)
            }
        }
        return lines["\(file)\t\(symbol)"].map { Citation(file: file, symbol: symbol, line: $0) }
    }

    /// Every symbol of `reference` resolved; nil for one the table does not have.
    static func citations(for reference: String) -> [Citation?] {
        symbols(in: reference).map { citation(file: $0.file, symbol: $0.symbol) }
    }

    /// Every symbol of a 5.21.5 reference ("Core/File.m -a:") resolved from the 5.x table, a header's method at
    /// its `.m` when that file has it; nil for one the table does not have.
    static func citations5(for reference: String) -> [Citation?] {
        symbols(in: reference).map { file, symbol in
            let candidates = (file.hasSuffix(".h") ? [String(file.dropLast(2)) + ".m"] : []) + [file]
            for candidate in candidates {
                if let line = lines5["\(candidate)\t\(symbol)"] {
                    return Citation(file: candidate, symbol: symbol, line: line, tag: "5.21.5")
                }
            }
            return nil
        }
    }

    /// The lines that decide an answer, as "File.m symbol #L12" or "#L12-14" (or a bare "File.m symbol" for the
    /// symbol's own line), separated by "; " — each resolved to
    /// its file (a header's method at its `.m`) and checked to lie inside its symbol: at or after the symbol's line
    /// and before the next symbol the table lists for that file. nil for one that is unknown or outside.
    static func decidingCitations(for reference: String) -> [Citation?] {
        reference.split(separator: ";").map { part in
            let text = part.trimmingCharacters(in: .whitespaces)
            if !text.contains(" #L") {
                let words = text.split(separator: " ", maxSplits: 1)
                return words.count == 2 ? citation(file: String(words[0]), symbol: String(words[1])) : nil
            }
            guard let hash = text.range(of: " #L", options: .backwards),
                let space = text[..<hash.lowerBound].firstIndex(of: " ")
            else { return nil }
            let file = String(text[..<space])
            let symbol = text[text.index(after: space)..<hash.lowerBound].trimmingCharacters(in: .whitespaces)
            let numbers = text[hash.upperBound...].split(separator: "-").compactMap { Int($0) }
            guard let first = numbers.first, let start = citation(file: file, symbol: symbol) else { return nil }
            let last = numbers.count > 1 ? numbers[1] : nil
            let next = lines.filter { $0.key.hasPrefix(start.file + "\t") && $0.value > start.line }.map(\.value).min()
            guard first >= start.line, (last ?? first) >= first, next.map({ (last ?? first) < $0 }) ?? true else {
                return nil
            }
            return Citation(file: start.file, symbol: symbol, line: first, lastLine: last)
        }
    }
}
