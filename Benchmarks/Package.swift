// swift-tools-version: 6.1
// In-process benchmarks of the SDK's own cost per call (issue #24), with ordo-one's
// package-benchmark. A package of its own so that the SDK's root stays dependency-free.
// Run: `cd Benchmarks && swift package benchmark` (see README.md).
import PackageDescription

let package = Package(
    name: "AppSDKBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "AppSDK", path: ".."),
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "SDKPerCall",
            dependencies: [
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
