// swift-tools-version: 6.1
// This repository's own test harness, for the tests of Server/, Examples/ and Integrations/: not
// a product of the SDK (an adopter's tests use the SDK's AppSDKTesting product instead).
//
// - AppSDKHarness: the live servers' environments and test traits, the reference server's
//   test-mode client, the third-party OAuth servers' user drivers, spawning helper programs and
//   the documentation's example adopters.
// - HostileServerKit: the hostile-server kit (docs/TESTING.md), a provider that answers with
//   every kind of malformed, oversized or malicious reply and checks the SDK's invariants.
//
// The SDK's own test targets use the same sources as targets of the root package (a target that
// is not a product cannot be used by another package, and the SDK itself depends on no package).
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "AppSDKHarness",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "AppSDKHarness", targets: ["AppSDKHarness"]),
        .library(name: "HostileServerKit", targets: ["HostileServerKit"]),
    ],
    dependencies: [
        .package(name: "AppSDK", path: ".."),
    ],
    targets: [
        .target(
            name: "AppSDKHarness",
            dependencies: [
                .product(name: "NetworkService", package: "AppSDK"),
                .product(name: "TokenStore", package: "AppSDK"),
                .product(name: "SessionEngine", package: "AppSDK"),
                .product(name: "OAuthSignIn", package: "AppSDK"),
                .product(name: "AppSDKTesting", package: "AppSDK"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "HostileServerKit",
            dependencies: [
                .product(name: "NetworkService", package: "AppSDK"),
                .product(name: "TokenStore", package: "AppSDK"),
                .product(name: "SessionEngine", package: "AppSDK"),
                .product(name: "OAuthSignIn", package: "AppSDK"),
                .product(name: "AppSDKTesting", package: "AppSDK"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
