// swift-tools-version: 6.1
// An HTTPTransport for the SDK over AsyncHTTPClient (SwiftNIO), for servers and command-line
// tools that already run SwiftNIO. It lives in its own package so that the SDK itself keeps
// no package dependencies: only front ends that choose this transport pull in AsyncHTTPClient.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "AsyncHTTPClientTransport",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "AsyncHTTPClientTransport", targets: ["AsyncHTTPClientTransport"]),
    ],
    dependencies: [
        .package(name: "AppSDK", path: "../.."),
        // This repository's test harness (not a product of the SDK): TestHarness/.
        .package(name: "AppSDKHarness", path: "../../TestHarness"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Already in AsyncHTTPClient's graph; named here because the transport classifies
        // their error types (no version beyond what AsyncHTTPClient asks for).
        .package(url: "https://github.com/apple/swift-nio", from: "2.100.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.30.0"),
    ],
    targets: [
        .target(
            name: "AsyncHTTPClientTransport",
            dependencies: [
                .product(name: "NetworkService", package: "AppSDK"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        // The SDK's transport conformance suite (AppSDKTesting) and the hostile-server kit
        // (TestHarness/), run against this transport,
        // plus what only this transport has: its shared client and its shutdown.
        .testTarget(
            name: "AsyncHTTPClientTransportTests",
            dependencies: [
                "AsyncHTTPClientTransport",
                .product(name: "NetworkService", package: "AppSDK"),
                .product(name: "TokenStore", package: "AppSDK"),
                .product(name: "SessionEngine", package: "AppSDK"),
                .product(name: "OAuthSignIn", package: "AppSDK"),
                .product(name: "AppSDKTesting", package: "AppSDK"),
                .product(name: "HostileServerKit", package: "AppSDKHarness"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
