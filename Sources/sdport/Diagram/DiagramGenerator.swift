import Foundation
import SDPort

/// Makes the diagrams of `Docs/diagrams` by running the code: the scenarios' sequence diagrams and the queue
/// map from real loads over a loopback server, the cache layout, the operation's states and the cleanup passes
/// from a real cache and real downloads. Nothing is drawn by hand.
enum DiagramGenerator {
    static let staticNames = ["queue-map", "cache-layout", "operation-states", "cleanup"]
    static let allNames = DiagramScenario.allCases.map(\.rawValue) + staticNames

    /// The diagrams named (in `allNames` order).
    @MainActor
    static func generate(_ names: Set<String>) async throws -> [DiagramFile] {
        var files: [String: DiagramFile] = [:]
        let loopback = try FAQLoopback()
        defer { loopback.close() }
        var runs: [(name: String, events: [SDWebImageTraceEvent])] = []
        for scenario in DiagramScenario.allCases where names.contains(scenario.rawValue) || names.contains("queue-map")
        {
            let diagram = SequenceDiagram(scenario: scenario, events: try await scenario.run(on: loopback))
            runs.append((scenario.rawValue, diagram.ordered))
            files[scenario.rawValue] = DiagramFile(name: scenario.rawValue, markdown: diagram.markdown)
        }
        if names.contains("queue-map") {
            files["queue-map"] = DiagramFile(name: "queue-map", markdown: QueueMapDiagram(runs: runs).markdown)
        }
        if names.contains("operation-states") {
            files["operation-states"] = await OperationStateDiagram.make(on: loopback)
        }
        if names.contains("cache-layout") { files["cache-layout"] = try await CacheLayoutDiagram.make() }
        if names.contains("cleanup") { files["cleanup"] = try await CleanupDiagram.make() }
        return allNames.filter(names.contains).compactMap { files[$0] }
    }
}
