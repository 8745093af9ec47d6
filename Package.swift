// swift-tools-version: 6.1
// The SDK shared by every front end of the app. It has no package dependencies
// on purpose (front ends add it without pulling anything in); libsodium comes in
// as a system library for the encrypted token store.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "AppSDK",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "NetworkService", targets: ["NetworkService"]),
        .library(name: "TokenStore", targets: ["TokenStore"]),
        // The session engine for any server: OAuth 2.0, a JSON server, or a refresher of your own.
        .library(name: "SessionEngine", targets: ["SessionEngine"]),
        // The app's API and its face of the engine (`RepositoryService`, the `.appAPI` preset).
        .library(name: "AppRepository", targets: ["AppRepository"]),
        // Signing in to any OAuth 2.0 / OpenID Connect server: discovery, the browser (PKCE)
        // and device flows, client credentials, ID tokens; every flow ends in the engine's session.
        .library(name: "OAuthSignIn", targets: ["OAuthSignIn"]),
        // For an adopter's own tests (like Hummingbird's HummingbirdTesting): the transport
        // conformance kit, a hand-moved clock, a loopback HTTP server and an in-memory keychain.
        // Not for front ends. This repository's own harness is not a product (TestHarness/).
        .library(name: "AppSDKTesting", targets: ["AppSDKTesting"]),
    ],
    traits: [
        .trait(
            name: "EncryptedTokenStore",
            description: "The libsodium-encrypted file store. Turn it off to build without libsodium."
        ),
        .default(enabledTraits: ["EncryptedTokenStore"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]
        ),
        .target(name: "NetworkService", swiftSettings: swiftSettings),
        .target(
            name: "TokenStore",
            // NetworkService for `AccessToken`: the one type of an access token, stored or sent.
            dependencies: ["NetworkService", .target(name: "CSodium", condition: .when(traits: ["EncryptedTokenStore"]))],
            swiftSettings: swiftSettings
        ),
        // Knows no server's API: an adopter of another server imports it, never AppRepository.
        .target(
            name: "SessionEngine",
            dependencies: ["NetworkService", "TokenStore"],
            swiftSettings: swiftSettings
        ),
        // Sign-in flows for any OAuth 2.0 / OpenID Connect server, over the engine; like the
        // engine, it knows no server's API.
        .target(
            name: "OAuthSignIn",
            dependencies: ["NetworkService", "TokenStore", "SessionEngine"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "AppRepository",
            dependencies: ["NetworkService", "TokenStore", "SessionEngine"],
            swiftSettings: swiftSettings
        ),
        // A small program the token-store tests spawn several times at once to prove
        // that the stores hold across processes (and survive a writer killed mid-save).
        .executableTarget(
            name: "TokenStoreProbe",
            dependencies: ["NetworkService", "TokenStore"],
            path: "Tests/TokenStoreProbe",
            swiftSettings: swiftSettings
        ),
        // What an adopter's tests use: the transport conformance kit every transport runs, a
        // hand-moved clock, a loopback HTTP server and an in-memory keychain.
        .target(
            name: "AppSDKTesting",
            dependencies: ["NetworkService", "TokenStore"],
            swiftSettings: swiftSettings
        ),
        // This repository's own harness, not a product: the live servers' environments and test
        // traits, the test-mode client, the third-party servers' user drivers, spawning helper
        // programs, the documentation's example adopters (AppSDKHarness) and the hostile-server
        // kit (HostileServerKit). Its sources live in TestHarness/, whose own Package.swift
        // builds them for Server/, Examples/ and Integrations/ (a target that is not a product
        // cannot be used by another package, and the SDK depends on no package); this package
        // builds the same files as targets of its own for its test targets.
        .target(
            name: "AppSDKHarness",
            dependencies: ["NetworkService", "TokenStore", "SessionEngine", "OAuthSignIn", "AppSDKTesting"],
            path: "TestHarness/Sources/AppSDKHarness",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "HostileServerKit",
            dependencies: ["NetworkService", "TokenStore", "SessionEngine", "OAuthSignIn", "AppSDKTesting"],
            path: "TestHarness/Sources/HostileServerKit",
            swiftSettings: swiftSettings + [.define("SDK_PACKAGE_MEMBER")]
        ),
        .testTarget(
            name: "UnitTests",
            dependencies: ["NetworkService", "TokenStore", "SessionEngine", "OAuthSignIn", "AppRepository", "TokenStoreProbe",
                           "AppSDKTesting", "AppSDKHarness", "HostileServerKit"],
            swiftSettings: swiftSettings
        ),
        // A second front end in its own process, which the slow tests spawn to show that
        // processes sharing an encrypted store refresh once between them.
        .executableTarget(
            name: "SessionProbe",
            dependencies: ["AppRepository", "SessionEngine", "NetworkService", "TokenStore"],
            path: "Tests/SessionProbe",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SlowTests",
            dependencies: ["NetworkService", "TokenStore", "SessionEngine", "AppRepository", "SessionProbe", "AppSDKTesting",
                           "AppSDKHarness"],
            swiftSettings: swiftSettings
        ),
        // A front end of a third-party OAuth 2.0 server in its own process: the conformance
        // tests run several at once over one encrypted store. Like any adopter of another
        // server, it and the conformance tests depend on the engine, not on AppRepository.
        .executableTarget(
            name: "OAuthProbe",
            dependencies: ["SessionEngine", "OAuthSignIn", "AppSDKHarness", "TokenStore"],
            path: "Tests/OAuthProbe",
            swiftSettings: swiftSettings
        ),
        // The OAuth 2.0 preset against django-oauth-toolkit (scripts/test starts it).
        .testTarget(
            name: "ConformanceTests",
            dependencies: ["SessionEngine", "OAuthSignIn", "NetworkService", "TokenStore", "AppSDKTesting", "AppSDKHarness",
                           "OAuthProbe"],
            swiftSettings: swiftSettings
        ),
    ]
)
