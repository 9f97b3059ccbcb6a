/// The quiz's random numbers: the system's, or a fixed sequence for `--seed` (SplitMix64), so a test or a
/// reader of the docs can get the same questions and the same order of choices again. Port addition.
struct QuizRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64?

    init(seed: UInt64?) { state = seed }

    mutating func next() -> UInt64 {
        guard let current = state else {
            var system = SystemRandomNumberGenerator()
            return system.next()
        }
        let advanced = current &+ 0x9E37_79B9_7F4A_7C15
        state = advanced
        var z = advanced
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
