// swift-tools-version:6.1
import PackageDescription

// SDPort: SDWebImage 4.4.x ported to Swift on Linux.
// System libraries come from Debian's -dev packages (scripts/setup-debian.sh installs them).
let package = Package(
    name: "SDPort",
    products: [
        .library(name: "SDPort", targets: ["SDPort"]),
        .library(name: "SDPortTestServer", targets: ["SDPortTestServer"]),
        .executable(name: "sdport", targets: ["sdport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        // MARK: C libraries (modulemap + shim header each; see Sources/C*/)
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        // giflib has no pkg-config file upstream; the modulemap links "gif" directly.
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        // EXIF orientation of JPEGs (COD-09).
        .systemLibrary(name: "CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        // The MD5 of cache file names (FAQ-03), from the system's libcrypto: 4.4.8 uses CommonCrypto's CC_MD5.
        .systemLibrary(name: "COpenSSLMD5", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // libjpeg reports errors by longjmp; that must stay inside C, so every libjpeg call lives here.
        .target(name: "CJPEGShim", linkerSettings: [.linkedLibrary("jpeg")]),
        // The current queue's label for the trace (dispatch_queue_get_label, which Swift's overlay does not expose).
        .target(name: "CQueueLabel"),

        // MARK: The library
        .target(
            name: "SDPort",
            dependencies: [
                "CCurl", "CPNG", "CTurboJPEG", "CGIF", "CWebP", "CExif", "CJPEGShim", "CQueueLabel", "COpenSSLMD5",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // MARK: The loopback HTTP(S) server used by the tests, the demo and the benchmarks
        .target(
            name: "SDPortTestServer",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),

        // MARK: The facts, as data: FAQ cards, myths, deliberate differences, parity IDs and the original's line
        // tables, one JSON file per item (Docs/knowledge/index.json lists them). Resources, so an installed `sdport`
        // (the binary and SDPort_SDPortKnowledge.resources beside it) needs no checkout; scripts/ read the same files.
        .target(
            name: "SDPortKnowledge",
            path: "Docs/knowledge",
            // The record of the follow-ups' checked tokens is for scripts/knowledge.py --check, not for sdport.
            exclude: ["verified-tokens.tsv"],
            sources: ["SDPortKnowledge.swift"],
            resources: [
                .copy("index.json"), .copy("faq"), .copy("myths"), .copy("differences"), .copy("parity"),
                .copy("original-lines.tsv"), .copy("original-lines-5.21.5.tsv"),
            ]
        ),

        // MARK: Command line and benchmarks
        // The flow's events as a Chrome trace (`sdport load --timeline`, `sdport-bench downloader --timeline`).
        .target(name: "SDPortTimeline", dependencies: ["SDPort"]),
        .executableTarget(
            name: "sdport",
            dependencies: [
                "SDPort", "SDPortTestServer", "SDPortKnowledge", "SDPortTimeline",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: Tests
        // Moves every test process's HOME and XDG directories into a temporary folder before main (isolation.c).
        .target(name: "SDPortTestIsolation", path: "Tests/Isolation"),
        .target(
            name: "SDPortTestSupport", dependencies: ["SDPort", "SDPortTestServer", "SDPortTestIsolation"],
            path: "Tests/Support"),
        // What cache tests run in child processes, and the seeded generator: shared by the tests and the worker.
        .target(name: "SDPortCacheWorkload", dependencies: ["SDPort"], path: "Tests/CacheWorkload"),
        // The child process of the cache tests (kill safety, several processes on one directory); not a test.
        .executableTarget(
            name: "sdport-cache-worker", dependencies: ["SDPortCacheWorkload", "SDPortTestIsolation"],
            path: "Tests/CacheWorker"),
        // Starts each child process of the tests (Tests/Support/ChildProcess.swift): forks, execs, reports the exit
        // and the child's own peak memory (launcher.c says why the test process cannot measure it directly).
        .executableTarget(name: "sdport-test-launcher", path: "Tests/Launcher"),
        .testTarget(
            name: "BehaviorTests",
            dependencies: [
                "SDPort", "SDPortTestServer", "SDPortTestSupport", "SDPortCacheWorkload",
                "SDPortTimeline", "sdport", "sdport-cache-worker", "sdport-test-launcher",
            ],
            path: "Tests/Behavior"),
        // The tests of the tooling around the library: the `sdport` command, the generated docs and diagrams, the
        // knowledge data, the quiz and drills, the timeline format, the layer rule.
        .testTarget(
            name: "ToolingTests",
            dependencies: [
                "SDPort", "SDPortTestServer", "SDPortTestSupport", "SDPortTimeline", "sdport", "sdport-test-launcher",
            ],
            path: "Tests/Tooling"),
        .testTarget(
            name: "InterviewTests",
            dependencies: ["SDPort", "SDPortTestServer", "SDPortTestSupport", "sdport", "sdport-test-launcher"],
            path: "Tests/Interview",
            exclude: ["README.md"]),
        // The bug museum (Museum/, scripts/museum.sh): each exhibit's two sides; SDPORT_MUSEUM=patched picks the side.
        .testTarget(
            name: "MuseumTests", dependencies: ["SDPort", "SDPortTestServer", "SDPortTestSupport", "CQueueLabel"],
            path: "Tests/Museum"),
    ],
    swiftLanguageModes: [.v6]
)

// Fuzzing (Fuzz/README.md): the libFuzzer harness exists only when scripts/fuzz.sh builds (SDPORT_FUZZ=1, scratch
// path .build-fuzz, every Swift module compiled with -sanitize=fuzzer,address). It has no `main` (libFuzzer
// brings one), so an ordinary `swift build` must not see it.
if Context.environment["SDPORT_FUZZ"] == "1" {
    package.targets.append(.executableTarget(name: "sdport-fuzz", dependencies: ["SDPort"], path: "Fuzz/Sources"))
    package.products.append(.executable(name: "sdport-fuzz", targets: ["sdport-fuzz"]))
}

// The benchmarks (Benchmarks/README.md), on package-benchmark. The MallocInterposer trait alone gives malloc counts; it
// leaves out the default RuntimeInterposer trait, whose package is not needed here. scripts/sanitize.sh leaves them
// out (SDPORT_SANITIZE=1): no test runs them, and two sanitized builds of the harness would cost CI minutes.
if Context.environment["SDPORT_SANITIZE"] != "1" {
    package.dependencies.append(
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]))
    package.products.append(.executable(name: "sdport-bench", targets: ["sdport-bench"]))
    package.targets.append(
        .executableTarget(
            name: "sdport-bench",
            dependencies: [
                "SDPort", "SDPortTestServer", "SDPortCacheWorkload", "SDPortTimeline",
                "CTurboJPEG", "CPNG", "CGIF", "CWebP",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/sdport-bench"
        ))
}
