// swift-tools-version: 6.1
// Two front ends that share the SDK, the way an app and its admin tool would:
// `app-member` (what a member does) and `app-admin` (what an admin does). Both are thin
// command-line programs over the SDK's RepositoryService; what they have in common (token
// store choice, passphrase, output, exit codes) lives in CLISupport. A third, `app-oauth`,
// signs in to any OAuth 2.0 / OpenID Connect server with OAuthSignIn and the same stores.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "AppSDKExamples",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "app-member", targets: ["app-member"]),
        .executable(name: "app-admin", targets: ["app-admin"]),
        .executable(name: "app-bench", targets: ["app-bench"]),
        .executable(name: "app-oauth", targets: ["app-oauth"]),
    ],
    // Both on by default. scripts/demo builds app-member and app-admin without them (its own
    // scratch path, Examples/.build-demo): the demo uses neither, and leaving out
    // AsyncHTTPClient, SwiftNIO's TLS and PostgresNIO is most of the CLIs' first build.
    traits: [
        .trait(name: "AsyncHTTPClient", description: "`--transport async-http-client` (Integrations/AsyncHTTPClientTransport)."),
        .trait(name: "PostgreSQL", description: "`--store postgres` (Integrations/PostgresTokenStore)."),
        // swift-crypto is in the default graph already (postgres-nio, async-http-client), so on
        // top of it this costs the integration's two files.
        .trait(name: "DPoPES256", description: "`sign-in --dpop es256` on Linux (Integrations/DPoPSwiftCrypto, swift-crypto); Apple platforms use CryptoKit."),
        .default(enabledTraits: ["AsyncHTTPClient", "PostgreSQL", "DPoPES256"]),
    ],
    dependencies: [
        .package(name: "AppSDK", path: ".."),
        // This repository's test harness (not a product of the SDK): TestHarness/.
        .package(name: "AppSDKHarness", path: "../TestHarness"),
        // `--transport async-http-client` (Integrations/AsyncHTTPClientTransport, its own package).
        .package(path: "../Integrations/AsyncHTTPClientTransport"),
        // `app-bench worker --store postgres` and the fleet test (Integrations/PostgresTokenStore).
        .package(path: "../Integrations/PostgresTokenStore"),
        // `sign-in --dpop es256` on Linux (Integrations/DPoPSwiftCrypto).
        .package(path: "../Integrations/DPoPSwiftCrypto"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Already in AsyncHTTPClientTransport's graph; named here for app-bench's raw
        // AsyncHTTPClient rows (no version beyond what the transport asks for).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.100.0"),
    ],
    targets: [
        .target(
            name: "CLISupport",
            dependencies: [
                .product(name: "AppRepository", package: "AppSDK"),
                .product(name: "SessionEngine", package: "AppSDK"),
                .product(name: "NetworkService", package: "AppSDK"),
                .product(name: "TokenStore", package: "AppSDK"),
                .product(name: "AsyncHTTPClientTransport", package: "AsyncHTTPClientTransport",
                         condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "PostgresTokenStore", package: "PostgresTokenStore",
                         condition: .when(traits: ["PostgreSQL"])),
                .product(name: "DPoPSwiftCrypto", package: "DPoPSwiftCrypto",
                         condition: .when(platforms: [.linux], traits: ["DPoPES256"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "app-member",
            dependencies: [
                "CLISupport",
                .product(name: "AppRepository", package: "AppSDK"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "app-admin",
            dependencies: [
                "CLISupport",
                .product(name: "AppRepository", package: "AppSDK"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // Signs in to any OAuth 2.0 / OpenID Connect server the way `gh auth login` does
        // (browser, device code, client credentials) and keeps the session in the CLIs' stores.
        .executableTarget(
            name: "app-oauth",
            dependencies: [
                "CLISupport",
                .product(name: "OAuthSignIn", package: "AppSDK"),
                .product(name: "SessionEngine", package: "AppSDK"),
                .product(name: "NetworkService", package: "AppSDK"),
                .product(name: "TokenStore", package: "AppSDK"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // Benchmarks and multi-process runs (scripts/bench, the fleet test): the SDK measured
        // from outside against the reference server in test mode.
        .executableTarget(
            name: "app-bench",
            dependencies: [
                // `--dpop eddsa|es256` (DPoPKeyChoice: swift-crypto's ES256 on Linux, by the DPoPES256 trait).
                "CLISupport",
                .product(name: "AppRepository", package: "AppSDK"),
                .product(name: "SessionEngine", package: "AppSDK"),
                .product(name: "NetworkService", package: "AppSDK"),
                .product(name: "TokenStore", package: "AppSDK"),
                .product(name: "AppSDKHarness", package: "AppSDKHarness"),
                .product(name: "AsyncHTTPClientTransport", package: "AsyncHTTPClientTransport"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "PostgresTokenStore", package: "PostgresTokenStore"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // app-bench's own logic without a server: how per-call sums up its rounds and judges a goal.
        .testTarget(
            name: "AppBenchTests",
            dependencies: ["app-bench"],
            swiftSettings: swiftSettings
        ),
        // 3 hosts × 4 processes sharing one session through PostgreSQL (app-bench fleet), with
        // faults; needs the live server and a PostgreSQL server (scripts/test starts both).
        .testTarget(
            name: "FleetTests",
            dependencies: [
                "app-bench",
                .product(name: "AppSDKHarness", package: "AppSDKHarness"),
            ],
            swiftSettings: swiftSettings
        ),
        // End-to-end tests: they spawn the two executables against the live server named by
        // APP_SERVER_URL. Depending on the executable targets makes `swift build --build-tests`
        // build them beside the test bundle.
        .testTarget(
            name: "CLITests",
            dependencies: [
                "app-member", "app-admin", "app-oauth",
                .product(name: "AppSDKTesting", package: "AppSDK"),
                .product(name: "AppSDKHarness", package: "AppSDKHarness"),
                .product(name: "HostileServerKit", package: "AppSDKHarness"),
                .product(name: "NetworkService", package: "AppSDK"),
            ],
            swiftSettings: swiftSettings
        ),
        // app-oauth's own logic without a server (the store bound to its profile).
        .testTarget(
            name: "AppOAuthTests",
            dependencies: [
                "app-oauth",
                .product(name: "OAuthSignIn", package: "AppSDK"),
                .product(name: "TokenStore", package: "AppSDK"),
            ],
            swiftSettings: swiftSettings
        ),
        // CLISupport's own logic without a server.
        .testTarget(
            name: "CLISupportTests",
            dependencies: [
                "CLISupport",
                .product(name: "AppRepository", package: "AppSDK"),
                .product(name: "SessionEngine", package: "AppSDK"),
                .product(name: "NetworkService", package: "AppSDK"),
                .product(name: "TokenStore", package: "AppSDK"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
