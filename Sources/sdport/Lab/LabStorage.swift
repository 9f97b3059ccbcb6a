/// Whether a lab run left an image under one cache key, in memory and on disk. Port addition.
struct LabStorage: Codable, Sendable, Equatable {
    /// What the key is ("URL key", "transformed key").
    let role: String
    let key: String
    let memory: Bool
    let disk: Bool

    var text: String {
        let places = [memory ? "memory" : nil, disk ? "disk" : nil].compactMap { $0 }
        return "\(role) \(key): " + (places.isEmpty ? "nothing" : places.joined(separator: " + "))
    }
}
