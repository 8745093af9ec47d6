// swift-tools-version: 6.1
// A TokenStore that keeps credentials in PostgreSQL, for several machines sharing one
// session: its own package so that the SDK itself keeps zero package dependencies.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "PostgresTokenStore",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "PostgresTokenStore", targets: ["PostgresTokenStore"]),
    ],
    dependencies: [
        // The SDK with its default traits: the encrypted format needs libsodium.
        .package(name: "AppSDK", path: "../.."),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Already PostgresNIO's own dependencies: named here for the login probe's logger and TLS.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        .target(
            name: "PostgresTokenStore",
            dependencies: [
                .product(name: "TokenStore", package: "AppSDK"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PostgresTokenStoreTests",
            dependencies: [
                "PostgresTokenStore",
                .product(name: "TokenStore", package: "AppSDK"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
