import Foundation

/// A lab scenario's two outcomes set side by side: for each aspect (callbacks, error, failed-URL list, cache,
/// server requests, loads the manager still lists as running) the two flows' values and whether they differ (callbacks per caller, keys without the
/// loopback server's origin), and the myth that tells the 4.0–4.2 story
/// when one matches. Everything but the myth comes from the run. Port addition.
struct LabComparison: Codable, Sendable {
    /// One aspect of the outcome.
    struct Row: Codable, Sendable, Equatable {
        let aspect: String
        let v4: [String]
        let v5: [String]
        let differs: Bool
    }

    /// The 4.0–4.2 line from the myths page (`Myth.all`).
    struct OlderVersions: Codable, Sendable, Equatable {
        let myth: String
        let trueIn: String
        let belief: String
        let truth: String
    }

    let scenario: String
    let summary: String
    let v4: LabOutcome
    let v5: LabOutcome
    let rows: [Row]
    let older: OlderVersions?

    var differences: [String] { rows.filter(\.differs).map(\.aspect) }

    init(scenario: LabScenario, v4: LabOutcome, v5: LabOutcome, myth: Myth?) {
        self.scenario = scenario.rawValue
        summary = scenario.summary
        self.v4 = v4
        self.v5 = v5
        func row(_ aspect: String, _ read: (LabOutcome) -> [String], compare: ((LabOutcome) -> [String])? = nil) -> Row
        {
            let differs = compare.map { $0(v4) != $0(v5) } ?? (read(v4) != read(v5))
            return Row(aspect: aspect, v4: read(v4), v5: read(v5), differs: differs)
        }
        rows = [
            // Printed in the order they came (#1, #2, …), compared per caller: the 5.x flow delivers each load from
            // its own transform queue, so the order between two callers' calls is not fixed there.
            row(
                "callbacks",
                { outcome in
                    outcome.callbacks.isEmpty
                        ? ["none"] : outcome.callbacks.enumerated().map { "#\($0.offset + 1) \($0.element.text)" }
                },
                compare: { outcome in
                    outcome.callbacks.enumerated().sorted {
                        ($0.element.caller, $0.offset) < ($1.element.caller, $1.offset)
                    }
                    .map(\.element.text)
                }),
            row("error") { [$0.error ?? "none"] },
            row("failedURLs") { [$0.blacklisted ? "URL blacklisted" : "URL not blacklisted"] },
            row("stored", { $0.stored.map(\.text) }, compare: { $0.stored.map(\.comparableText) }),
            row("server requests") { ["\($0.serverRequests)"] },
            row("running loads") { ["\($0.runningLoads)"] },
        ]
        older = myth.map { OlderVersions(myth: $0.id, trueIn: $0.trueIn, belief: $0.belief, truth: $0.truth) }
    }

    /// The comparison as text lines (no colours: the same in a terminal and a pipe).
    var lines: [String] {
        var out = [
            "lab \(scenario): \(summary)",
            "  4.4.8 = \(LabFlow.v4.entryPoint)",
            "  5.x   = \(LabFlow.v5.entryPoint)", "",
        ]
        for row in rows {
            if row.differs || row.v4 != row.v5 && row.aspect == "callbacks" {
                // `~`: the same calls per caller, arriving in another order.
                out.append(row.differs ? "≠ \(row.aspect)" : "~ \(row.aspect) (the same per caller, in another order)")
                for (flow, values) in [("4.4.8", row.v4), ("5.x  ", row.v5)] {
                    for (index, value) in values.enumerated() {
                        out.append("    " + (index == 0 ? flow : "     ") + "  " + value)
                    }
                }
            } else if row.v4.count == 1 {
                out.append("= \(row.aspect): \(row.v4[0]) (both)")
            } else {
                out.append("= \(row.aspect) (both):")
                out.append(contentsOf: row.v4.map { "           " + $0 })
            }
        }
        out.append("")
        out.append(differences.isEmpty ? "Same in both flows." : "Differs: \(differences.joined(separator: ", ")).")
        if let older {
            // A myth that never held is a belief, not an older version's behaviour: it is labelled as such.
            let held = ["4.0", "4.1", "4.2"].contains { older.trueIn.contains($0) }
            out.append((held ? "4.0–4.2" : "Myth") + " (\(older.myth), held in \(older.trueIn)): \(older.belief)")
            out.append("  4.4.8: \(older.truth)")
        }
        return out
    }
}

extension LabStorage {
    /// The text with the loopback server's origin cut from the key: each flow has its own server, so only the
    /// path part of two keys can be compared.
    var comparableText: String {
        var shown = key
        if let range = key.range(of: "://"), let slash = key[range.upperBound...].firstIndex(of: "/") {
            shown = String(key[slash...])
        }
        let places = [memory ? "memory" : nil, disk ? "disk" : nil].compactMap { $0 }
        return "\(role) \(shown): " + (places.isEmpty ? "nothing" : places.joined(separator: " + "))
    }
}
