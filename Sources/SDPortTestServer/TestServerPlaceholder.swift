/// The loopback HTTP(S) server used by the tests, the demo and the benchmarks (see issue 4).
public enum SDPortTestServerInfo {
    public static let name = "SDPortTestServer"
}
