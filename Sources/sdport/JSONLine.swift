import Foundation

/// One JSON object on one line, keys sorted, for `--json` output.
enum JSONLine {
    /// A JSON value of the kinds the command prints.
    enum Value: Sendable {
        case string(String)
        case int(Int)
        case double(Double)
        case bool(Bool)
        case null
        case array([Value])

        var object: Any {
            switch self {
            case .string(let s): return s
            case .int(let i): return i
            case .double(let d): return d
            case .bool(let b): return b
            case .null: return NSNull()
            case .array(let values): return values.map(\.object)
            }
        }
    }

    static func encode(_ fields: [String: Value]) -> String {
        let object = fields.mapValues(\.object)
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]),
            let text = String(data: data, encoding: .utf8)
        else { return "{}" }
        return text
    }
}
