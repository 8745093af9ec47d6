// swift-tools-version: 6.1
// The session engine's records (SessionRecord) as swift-log log lines, swift-metrics counters
// and timers, and a swift-distributed-tracing span per refresh: its own package so that the
// SDK itself keeps zero package dependencies.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "SessionObservability",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "SessionObservability", targets: ["SessionObservability"]),
    ],
    dependencies: [
        .package(name: "AppSDK", path: "../.."),
        // This repository's test harness (not a product of the SDK): TestHarness/.
        .package(name: "AppSDKHarness", path: "../../TestHarness"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [
        .target(
            name: "SessionObservability",
            dependencies: [
                .product(name: "SessionEngine", package: "AppSDK"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SessionObservabilityTests",
            dependencies: [
                "SessionObservability",
                .product(name: "SessionEngine", package: "AppSDK"),
                .product(name: "NetworkService", package: "AppSDK"),
                .product(name: "TokenStore", package: "AppSDK"),
                .product(name: "AppSDKTesting", package: "AppSDK"),
                .product(name: "AppSDKHarness", package: "AppSDKHarness"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
