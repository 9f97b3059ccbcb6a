/// What `sdport museum N` saw when it ran an exhibit's unpatched side: how it ran ("in-process" on the port this
/// binary was built from, or "swift test" in the checkout), the lines it printed, and whether the side behaved as
/// the exhibit says.
struct MuseumLiveReport: Codable, Sendable {
    let mode: String
    let command: String?
    let lines: [String]
    let asExpected: Bool
}
