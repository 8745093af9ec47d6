// swift-tools-version: 6.1
// DPoP proofs (RFC 9449) signed with ES256 on Linux: swift-crypto's P-256 (BoringSSL), with the
// same key format as CryptoKit's on Apple platforms. Its own package so that the SDK itself
// keeps zero package dependencies (docs/DPOP-PLAN.md §4).
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "DPoPSwiftCrypto",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "DPoPSwiftCrypto", targets: ["DPoPSwiftCrypto"]),
    ],
    dependencies: [
        .package(name: "AppSDK", path: "../.."),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.1.0"),
    ],
    targets: [
        .target(
            name: "DPoPSwiftCrypto",
            dependencies: [
                .product(name: "NetworkService", package: "AppSDK"),
                // `DPoPKeyKind.swiftCryptoES256`: the engine's kind of key for ES256 on Linux.
                .product(name: "TokenStore", package: "AppSDK"),
                .product(name: "SessionEngine", package: "AppSDK"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DPoPSwiftCryptoTests",
            dependencies: [
                "DPoPSwiftCrypto",
                .product(name: "NetworkService", package: "AppSDK"),
                .product(name: "TokenStore", package: "AppSDK"),
                .product(name: "SessionEngine", package: "AppSDK"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
