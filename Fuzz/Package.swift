// swift-tools-version: 6.1
// libFuzzer targets for every parser of input the SDK does not control (issue #23): one
// executable per target, built with `-sanitize=fuzzer,address` by scripts/fuzz, which also runs
// them (see README.md). Depends on the SDK by path and on nothing else. The SDK's modules are
// built with the same flags (coverage guides the fuzzer through them) and with
// `-enable-testing`, so that a target can reach an internal parser through `@testable import`
// without the SDK's public API changing.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .unsafeFlags(["-parse-as-library"]),  // libFuzzer supplies `main`
]

/// A fuzz target: `Sources/<name>/<name>.swift` defines `LLVMFuzzerTestOneInput`.
func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(
        name: name, dependencies: ["FuzzSupport"] + dependencies, swiftSettings: swiftSettings,
        // gold fails on the sanitizers' objects ("internal error in format_file_lineno").
        linkerSettings: [.unsafeFlags(["-use-ld=lld"], .when(platforms: [.linux]))]
    )
}

let sdk = "AppSDK"

let package = Package(
    name: "AppSDKFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: sdk, path: "..")],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "NetworkService", package: sdk),
                                                   .product(name: "TokenStore", package: sdk)],
                swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
        fuzzTarget("jwt-payload", [.product(name: "SessionEngine", package: sdk)]),
        fuzzTarget("www-authenticate", [.product(name: "NetworkService", package: sdk)]),
        fuzzTarget("error-body", [.product(name: "NetworkService", package: sdk)]),
        fuzzTarget("retry-after", [.product(name: "NetworkService", package: sdk)]),
        fuzzTarget("rfc3339-date", [.product(name: "NetworkService", package: sdk)]),
        fuzzTarget("token-response", [.product(name: "NetworkService", package: sdk),
                                      .product(name: "SessionEngine", package: sdk),
                                      .product(name: "AppRepository", package: sdk),
                                      .product(name: "OAuthSignIn", package: sdk)]),
        fuzzTarget("plain-store", [.product(name: "TokenStore", package: sdk)]),
        fuzzTarget("dpop-store", [.product(name: "TokenStore", package: sdk), .product(name: "NetworkService", package: sdk)]),
        fuzzTarget("encrypted-store", [.product(name: "TokenStore", package: sdk)]),
        fuzzTarget("sealed-box", [.product(name: "TokenStore", package: sdk)]),
        fuzzTarget("query-path", [.product(name: "NetworkService", package: sdk)]),
        fuzzTarget("discovery", [.product(name: "OAuthSignIn", package: sdk), .product(name: "NetworkService", package: sdk)]),
        fuzzTarget("device-authorization", [.product(name: "OAuthSignIn", package: sdk),
                                            .product(name: "NetworkService", package: sdk)]),
        fuzzTarget("id-token", [.product(name: "OAuthSignIn", package: sdk)]),
        fuzzTarget("loopback-request", [.product(name: "OAuthSignIn", package: sdk)]),
    ]
)
