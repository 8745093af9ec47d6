// swift-tools-version: 6.1
// In-process benchmarks of the SDK's own cost per call (issue #24), with ordo-one's
// package-benchmark. A package of its own so that the SDK's root stays dependency-free.
// Run: `cd Benchmarks && swift package benchmark` (see README.md).
import PackageDescription

let package = Package(
    name: "AppSDKBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "AppSDK", path: ".."),
        // ES256 proofs on Linux: the SDK's swift-crypto signer (BoringSSL; README.md, "Rows").
        .package(name: "DPoPSwiftCrypto", path: "../Integrations/DPoPSwiftCrypto"),
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // What every benchmark shares: the memory transport, the endpoint and its response.
        .target(
            name: "BenchFixtures",
            dependencies: [
                .product(name: "NetworkService", package: "AppSDK"),
                .product(name: "TokenStore", package: "AppSDK"),
                .product(name: "SessionEngine", package: "AppSDK"),
                .product(name: "DPoPSwiftCrypto", package: "DPoPSwiftCrypto"),
            ],
            swiftSettings: [.enableUpcomingFeature("InternalImportsByDefault")]
        ),
        // Each row in a loop: CPU per call (process CPU), the time goals (`SendLoop goals`),
        // and a loop to run under `strace -c` or `valgrind --tool=callgrind` (README.md).
        .executableTarget(
            name: "SendLoop",
            dependencies: [
                "BenchFixtures",
                .product(name: "NetworkService", package: "AppSDK"),
                .product(name: "SessionEngine", package: "AppSDK"),
            ]
        ),
        .executableTarget(
            name: "SDKPerCall",
            dependencies: [
                "BenchFixtures",
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "NetworkService", package: "AppSDK"),
                .product(name: "TokenStore", package: "AppSDK"),
                .product(name: "SessionEngine", package: "AppSDK"),
            ],
            path: "Benchmarks/SDKPerCall",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ]
)
