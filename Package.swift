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
        // Test support shared by the test targets of this package, Server/ and Examples/
        // (like Hummingbird's HummingbirdTesting): not for front ends.
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
        // Test support for every package's tests: the live server's environment and test
        // traits, the test-mode client, a hand-moved clock, spawning helper programs, a
        // loopback HTTP server and the transport conformance suite every transport runs.
        .target(
            name: "AppSDKTesting",
            dependencies: ["NetworkService", "TokenStore", "SessionEngine", "OAuthSignIn"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "UnitTests",
            dependencies: ["NetworkService", "TokenStore", "SessionEngine", "OAuthSignIn", "AppRepository", "TokenStoreProbe",
                           "AppSDKTesting"],
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
            dependencies: ["NetworkService", "TokenStore", "SessionEngine", "AppRepository", "SessionProbe", "AppSDKTesting"],
            swiftSettings: swiftSettings
        ),
        // A front end of a third-party OAuth 2.0 server in its own process: the conformance
        // tests run several at once over one encrypted store. Like any adopter of another
        // server, it and the conformance tests depend on the engine, not on AppRepository.
        .executableTarget(
            name: "OAuthProbe",
            dependencies: ["SessionEngine", "OAuthSignIn", "AppSDKTesting", "TokenStore"],
            path: "Tests/OAuthProbe",
            swiftSettings: swiftSettings
        ),
        // The OAuth 2.0 preset against django-oauth-toolkit (scripts/test starts it).
        .testTarget(
            name: "ConformanceTests",
            dependencies: ["SessionEngine", "OAuthSignIn", "NetworkService", "TokenStore", "AppSDKTesting", "OAuthProbe"],
            swiftSettings: swiftSettings
        ),
    ]
)
